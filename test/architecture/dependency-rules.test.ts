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
    write('src/domain/channel.ts', "import type { Store } from '../store/store.ts';\nexport type Channel = { store?: Store };\n");
    write('src/store/store.ts', "import type { Channel } from '../domain/channel.ts';\nexport type Store = { channels: Channel[] };\n");
    write('src/protocols/openai-chat/index.ts', "export { helper } from './helper.ts';\n");
    write('src/protocols/openai-chat/helper.ts', "import { relay } from '../../relay/relay.ts';\nexport const helper = relay;\n");
    write('src/relay/relay.ts', "import { helper } from '../protocols/openai-chat/helper.ts';\nexport const relay = 1;\nexport const uses = helper;\n");
    write('src/routing/route.ts', "import { server } from '../server/server.ts';\nexport const route = server;\n");
    write('src/server/server.ts', "export const server = 1;\n");

    test('a cycle, a codec internal imported from outside, an impure codec, a leaf that imports, a lower layer reaching up', async () => {
      const found = await violations(directory);
      const rules = new Set(found.map((line) => line.split(':')[0]));
      for (const rule of ['no-cycles', 'codec-internals-stay-in-protocols', 'codecs-are-pure', 'domain-is-a-leaf', 'lower-layers-do-not-reach-up']) {
        assert.ok(rules.has(rule), `${rule} did not fire; found:\n${found.join('\n')}`);
      }
      assert.ok(found.includes('codec-internals-stay-in-protocols: src/relay/relay.ts -> src/protocols/openai-chat/helper.ts'), found.join('\n'));
      assert.ok(!found.some((line) => line.includes('-> src/protocols/openai-chat/index.ts')), 'a codec’s index.ts is its public entry');
    });
  });
});
