// The dependency rules of docs/architecture.md ("Dependency rules"), checked by `npm test`
// (scripts/check-dependencies.mjs). Only src/ is checked: tests may reach into any module.
// Type-only imports count too: a type cycle is still a cycle in the design.
// The layers of docs/architecture.md, bottom to top: a folder imports only from its own layer or below.
const LAYERS = [
  ['domain', 'core'],
  ['protocols'],
  ['kv', 'store', 'snapshot', 'upstream', 'mail'],
  ['schemas'],
  ['access'],
  ['billing', 'ledger', 'config', 'cluster', 'accounts', 'notify', 'identity', 'payments'],
  ['relay'],
  ['generation', 'responses'],
  ['server'],
  ['startup'],
];
const ADAPTERS = LAYERS[2].join('|');
const POLICY = LAYERS[5].join('|');
/** The folders of every layer above the one holding `folders` ("a|b"), as a regex alternation. */
function above(folders) {
  const index = LAYERS.findIndex((layer) => layer.includes(folders.split('|')[0]));
  return LAYERS.slice(index + 1).flat().join('|');
}

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
        'of a codec folder are its own business. protocols/shared/ holds codec-neutral helpers (isRecord) and protocols/sse/ ' +
        'the SSE framing every streamed wire shares (the relay parses upstream streams with it); both are open.',
      from: { path: '^src/', pathNot: '^src/protocols/' },
      to: { path: '^src/protocols/[^/]+/', pathNot: ['^src/protocols/[^/]+/index[.]ts$', '^src/protocols/(shared|sse)/'] },
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
      comment: 'The canonical model (core/) and SSE framing (protocols/sse/) depend on nothing else in the gateway.',
      from: { path: '^src/(core|protocols/sse)/' },
      to: { path: '^src/', pathNot: '^src/(core|protocols/sse)/' },
    },
    {
      name: 'codecs-are-pure',
      severity: 'error',
      comment: 'Codecs see only the canonical model and SSE framing (protocols/sse/): no store, no HTTP, no relay, no I/O.',
      from: { path: '^src/protocols/' },
      to: { path: '^src/', pathNot: '^src/(protocols|core)/' },
    },
    {
      name: 'codecs-do-no-io',
      severity: 'error',
      comment: 'No clock, network, file or process access in a codec; time and ids come from RuntimeContext.',
      from: { path: '^src/protocols/', pathNot: '^src/protocols/sse/' },
      to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'sse-does-no-io',
      severity: 'error',
      comment:
        'SSE framing (protocols/sse/) may use its parsing libraries (eventsource-parser, the AWS event-stream codec) but ' +
        'no Node module: no clock, network, file or process access.',
      from: { path: '^src/protocols/sse/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'store-sees-only-domain',
      severity: 'error',
      comment: 'The store implements its ports over the domain records; it knows nothing of requests, routing or HTTP.',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: '^src/(store|domain|core)/' },
    },
    {
      name: 'adapters-stay-below-policy',
      severity: 'error',
      comment:
        'Kv, store, snapshot, upstream and mail are the adapters and state every request uses; they never ' +
        'import the input rules, policy, relay, pipeline, HTTP or start-up layers above them.',
      from: { path: `^src/(${ADAPTERS})/` },
      to: { path: `^src/(${above(ADAPTERS)})/` },
    },
    {
      name: 'schemas-stay-below-policy',
      severity: 'error',
      comment: 'The zod rule for each field (schemas/) is shared by the admin API and the config file; it knows no policy.',
      from: { path: '^src/schemas/' },
      to: { path: `^src/(${above('schemas')})/` },
    },
    {
      name: 'access-below-billing',
      severity: 'error',
      comment: 'Who may ask (access/) is decided before what it costs (billing/): access never imports billing or anything above.',
      from: { path: '^src/access/' },
      to: { path: `^src/(${above('access')})/` },
    },
    {
      name: 'lower-layers-do-not-reach-up',
      severity: 'error',
      comment:
        'The request path is built bottom-up: records and codecs, then adapters and state, then input rules, access and ' +
        'policy, then the relay, then the pipeline, then HTTP, then start-up. Policy (billing, ledger, config, cluster, accounts, ...) ' +
        'never imports the relay, the pipeline, HTTP or start-up.',
      from: { path: `^src/(${POLICY})/` },
      to: { path: `^src/(${above(POLICY)})/` },
    },
    {
      name: 'relay-below-pipeline',
      severity: 'error',
      comment: 'The relay (with its channel adapters, relay/channels/, the order and health of channels, relay/routing/, and the reasoning seal and restore, relay/reasoning/) tries channels for one decoded request; the pipeline (generation/, responses/) calls it, never the reverse.',
      from: { path: '^src/relay/' },
      to: { path: `^src/(${above('relay')})/` },
    },
    {
      name: 'pipeline-below-http',
      severity: 'error',
      comment: 'The pipeline is framework-free: generation/ and responses/ never import server/ or start-up.',
      from: { path: '^src/(generation|responses)/' },
      to: { path: `^src/(${above('generation|responses')})/` },
    },
    {
      name: 'http-below-startup',
      severity: 'error',
      comment: 'server/ only speaks HTTP; start-up (startup/, main.ts) wires it, never the reverse.',
      from: { path: '^src/server/' },
      to: { path: '^src/(startup/|main[.]ts$)' },
    },
    {
      name: 'every-file-has-a-layer',
      severity: 'error',
      comment:
        'Every folder under src/ is in the layer table (docs/architecture.md) and under the rules above; src/ root holds ' +
        'only main.ts. A new folder (or a file in the root) is refused until it is given its layer here.',
      from: { path: '^src/', pathNot: `^src/((${LAYERS.flat().join('|')})/|main[.]ts$)` },
      to: {},
    },
    {
      name: 'http-framework-stays-in-server',
      severity: 'error',
      comment: 'Fastify is the HTTP layer; everything under it is framework-free and testable without a server.',
      from: { path: '^src/', pathNot: '^src/(server|startup)/' },
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
