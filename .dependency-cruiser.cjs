// The dependency rules of docs/architecture.md ("Dependency rules"), checked by `npm test`
// (scripts/check-dependencies.mjs). Only src/ is checked: tests may reach into any module.
// Type-only imports count too: a type cycle is still a cycle in the design.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Modules form a directed graph: a cycle means two modules are one, or one is in the wrong folder.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'codec-internals-stay-in-protocols',
      severity: 'error',
      comment:
        "Outside src/protocols/, a codec is reached only through its public entry (its index.ts), the registry " +
        '(codec-registry.ts), the contract (protocol-codec.ts) or the other top-level protocols/ modules; the files ' +
        'of a codec folder are its own business. protocols/shared/ holds codec-neutral helpers (isRecord) and is open.',
      from: { path: '^src/', pathNot: '^src/protocols/' },
      to: { path: '^src/protocols/[^/]+/', pathNot: ['^src/protocols/[^/]+/index[.]ts$', '^src/protocols/shared/'] },
    },
    {
      name: 'domain-is-a-leaf',
      severity: 'error',
      comment: 'src/domain/ holds the records every layer shares; it imports nothing but itself.',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'core-and-sse-are-leaves',
      severity: 'error',
      comment: 'The canonical model (core/) and SSE framing (sse/) depend on nothing else in the gateway.',
      from: { path: '^src/(core|sse)/' },
      to: { path: '^src/', pathNot: '^src/(core|sse)/' },
    },
    {
      name: 'codecs-are-pure',
      severity: 'error',
      comment: 'Codecs see only the canonical model and SSE framing: no store, no HTTP, no relay, no I/O.',
      from: { path: '^src/protocols/' },
      to: { path: '^src/', pathNot: '^src/(protocols|core|sse)/' },
    },
    {
      name: 'codecs-do-no-io',
      severity: 'error',
      comment: 'No clock, network, file or process access in a codec; time and ids come from RuntimeContext.',
      from: { path: '^src/protocols/' },
      to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'store-sees-only-domain',
      severity: 'error',
      comment: 'The store implements its ports over the domain records; it knows nothing of requests, routing or HTTP.',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: '^src/(store|domain|core)/' },
    },
    {
      name: 'lower-layers-do-not-reach-up',
      severity: 'error',
      comment:
        'The request path is built bottom-up: records and codecs, then channels, routing, kv, store and snapshot, then ' +
        'access and billing, then the relay, then the generation pipeline, then the HTTP layer. A lower layer never ' +
        'imports relay/, generation/ or server/, and the relay never imports generation/ or server/.',
      from: { path: '^src/(domain|core|sse|protocols|channels|routing|kv|store|snapshot|upstream|access|billing|config|cluster|schemas)/' },
      to: { path: '^src/(relay|generation|server)/' },
    },
    {
      name: 'relay-below-pipeline',
      severity: 'error',
      comment: 'The relay tries channels for one decoded request; the pipeline (generation/) calls it, never the reverse.',
      from: { path: '^src/relay/' },
      to: { path: '^src/(generation|server)/' },
    },
    {
      name: 'http-framework-stays-in-server',
      severity: 'error',
      comment: 'Fastify is the HTTP layer; everything under it is framework-free and testable without a server.',
      from: { path: '^src/', pathNot: '^src/(server/|start-gateway[.]ts$)' },
      to: { path: '(^|/)node_modules/(fastify|@fastify/)' },
    },
    {
      name: 'src-does-not-import-tests',
      severity: 'error',
      from: { path: '^src/', pathNot: '[.]test[.]ts$' },
      to: { path: '^test/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve is a typo or a missing dependency.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]test[.]ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
