import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';

// The rules of docs/architecture.md ("Dependency rules"), as dependency-cruiser checks them.
const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs') as IConfiguration;
const ROOT = join(dirname(new URL(import.meta.url).pathname), '..', '..');

async function violations(baseDir: string, knownViolations: unknown[] = []): Promise<string[]> {
  const { output } = await cruise(
    ['src'],
    {
      ruleSet: { forbidden: config.forbidden ?? [] },
      validate: true,
      baseDir,
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: '[.]test[.]ts$' },
      knownViolations: knownViolations as never,
    },
    { extensions: ['.ts', '.js', '.mjs', '.json'] },
  );
  const result = output as ICruiseResult;
  return result.summary.violations
    .filter((violation) => violation.rule.severity !== 'ignore')
    .map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`)
    .sort();
}

describe('dependency rules', () => {
  test('src/ keeps them (known violations listed in .dependency-cruiser-known-violations.json only)', async () => {
    const known = JSON.parse(readFileSync(join(ROOT, '.dependency-cruiser-known-violations.json'), 'utf8')) as unknown[];
    assert.deepEqual(await violations(ROOT, known), []);
  });

  describe('each rule catches what it forbids', () => {
    const directory = mkdtempSync(join(tmpdir(), 'switchyard-deps-'));
    after(() => rmSync(directory, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(directory, path)), { recursive: true });
      writeFileSync(join(directory, path), text);
    };
    const imports = (...targets: string[]) =>
      `${targets.map((target, index) => `import * as m${index} from '${target}';`).join('\n')}\nexport const uses = [${targets.map((_, index) => `m${index}`).join(', ')}];\n`;
    // One fixture file (or edge) per rule, each breaking that rule; the allowed edges below must pass.
    write('node_modules/fastify/package.json', '{"name":"fastify","version":"5.0.0","main":"index.js"}');
    write('node_modules/fastify/index.js', 'module.exports = {};\n');
    write('test/helper.ts', 'export const helper = 1;\n');
    write('src/domain/channel.ts', imports('../store/store.ts'));
    write('src/store/store.ts', imports('../domain/channel.ts'));
    write('src/store/cache.ts', imports('../kv/kv.ts'));
    write('src/kv/kv.ts', 'export const kv = 1;\n');
    write('src/core/model.ts', imports('../domain/money.ts'));
    write('src/domain/money.ts', 'export const money = 1;\n');
    write('src/protocols/sse/frame.ts', imports('../../kv/route.ts'));
    write('src/protocols/sse/timer.ts', imports('node:timers'));
    write('src/relay/pipe.ts', imports('../protocols/sse/frame.ts'));
    write('src/protocols/openai-chat/index.ts', imports('./helper.ts'));
    write('src/protocols/openai-chat/helper.ts', imports('../../relay/relay.ts'));
    write('src/protocols/openai-chat/clock.ts', imports('node:fs'));
    write('src/kv/route.ts', imports('../server/server.ts'));
    write('src/schemas/field.ts', imports('../billing/meter.ts'));
    write('src/access/services.ts', imports('../billing/meter.ts'));
    write('src/billing/meter.ts', imports('../relay/relay.ts', '../access/key.ts'));
    write('src/access/key.ts', 'export const key = 1;\n');
    write(
      'src/relay/relay.ts',
      imports(
        '../protocols/openai-chat/helper.ts',
        '../protocols/openai-chat/index.ts',
        '../generation/run.ts',
        'fastify',
        '../../test/helper.ts',
        './missing.ts',
      ),
    );
    write('src/generation/run.ts', imports('../server/server.ts'));
    write('src/responses/turn.ts', imports('../relay/relay.ts'));
    write('src/server/server.ts', imports('../startup/start.ts', '../generation/run.ts', 'fastify'));
    write('src/startup/start.ts', imports('../server/server.ts', 'fastify'));
    write('src/main.ts', imports('./startup/start.ts'));
    write('src/helpers.ts', imports('./domain/money.ts'));
    write('src/newroom/thing.ts', imports('../domain/money.ts'));

    const expected = [
      'no-cycles: src/domain/channel.ts -> src/store/store.ts',
      'codec-internals-stay-in-protocols: src/relay/relay.ts -> src/protocols/openai-chat/helper.ts',
      'domain-is-a-leaf: src/domain/channel.ts -> src/store/store.ts',
      'core-and-sse-are-leaves: src/core/model.ts -> src/domain/money.ts',
      'core-and-sse-are-leaves: src/protocols/sse/frame.ts -> src/kv/route.ts',
      'sse-does-no-io: src/protocols/sse/timer.ts -> timers',
      'codecs-are-pure: src/protocols/openai-chat/helper.ts -> src/relay/relay.ts',
      'codecs-do-no-io: src/protocols/openai-chat/clock.ts -> fs',
      'store-sees-only-domain: src/store/cache.ts -> src/kv/kv.ts',
      'adapters-stay-below-policy: src/kv/route.ts -> src/server/server.ts',
      'schemas-stay-below-policy: src/schemas/field.ts -> src/billing/meter.ts',
      'access-below-billing: src/access/services.ts -> src/billing/meter.ts',
      'lower-layers-do-not-reach-up: src/billing/meter.ts -> src/relay/relay.ts',
      'relay-below-pipeline: src/relay/relay.ts -> src/generation/run.ts',
      'pipeline-below-http: src/generation/run.ts -> src/server/server.ts',
      'http-below-startup: src/server/server.ts -> src/startup/start.ts',
      'every-file-has-a-layer: src/helpers.ts -> src/domain/money.ts',
      'every-file-has-a-layer: src/newroom/thing.ts -> src/domain/money.ts',
      'http-framework-stays-in-server: src/relay/relay.ts -> node_modules/fastify/index.js',
      'src-does-not-import-tests: src/relay/relay.ts -> test/helper.ts',
      'not-to-unresolvable: src/relay/relay.ts -> ./missing.ts',
    ];
    const allowed = [
      '-> src/protocols/openai-chat/index.ts',
      'src/billing/meter.ts -> src/access/key.ts',
      'src/relay/pipe.ts -> src/protocols/sse/frame.ts',
      'src/responses/turn.ts -> src/relay/relay.ts',
      'src/server/server.ts -> src/generation/run.ts',
      'src/server/server.ts -> node_modules/fastify',
      'src/startup/start.ts -> ',
      'src/main.ts -> ',
    ];

    test('every rule in .dependency-cruiser.cjs fires on the fixture, on exactly the edge that breaks it', async () => {
      const found = await violations(directory);
      for (const line of expected) assert.ok(found.includes(line), `expected "${line}"; found:\n${found.join('\n')}`);
      const fired = new Set(found.map((line) => line.split(':')[0]));
      for (const rule of config.forbidden ?? []) assert.ok(fired.has(rule.name), `${rule.name} has no fixture that makes it fire`);
      for (const edge of allowed) assert.ok(!found.some((line) => line.includes(edge)), `"${edge}" is allowed; found:\n${found.join('\n')}`);
    });
  });
});
