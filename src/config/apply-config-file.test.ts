import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import { createStore } from '../store/create-store.ts';
import { hashApiKey } from '../access/hash-api-key.ts';
import type { Store } from '../store/store.ts';
import { applyConfig, applyConfigFile } from './apply-config-file.ts';
import { ConfigError } from './config-error.ts';
import { parseConfigFile } from './read-config-file.ts';

const ALICE = 'sk-alice-0123456789abcdefghij';
const ENV = { OPENAI_KEY: 'sk-upstream-openai', ALICE_KEY: ALICE };

const BASE = `
groups:
  - name: vip
    description: Partners
    priceMultiplier: 0.8
channels:
  - name: openai-main
    provider: openai
    baseUrl: https://api.openai.com/v1
    apiKey: \${OPENAI_KEY}
    models: [gpt-4o]
    groups: [default, vip]
    modelMap: { gpt-4o: gpt-4o-2024-08-06 }
keys:
  - name: alice
    group: vip
    key: \${ALICE_KEY}
    balance: 10
    expiresAt: 2030-01-01
    limits: { requestsPerMinute: 60, dailySpend: 1.5 }
prices:
  - model: gpt-4o
    input: 2.5
    output: 10
    cacheRead: 1.25
`;

let store: Store;
beforeEach(async () => {
  store = await createStore({ databaseUrl: 'sqlite::memory:', secretKey: Buffer.from('config-test-secret-0123456789') });
});
afterEach(async () => {
  await store.close();
});

const apply = (yaml: string, env: Record<string, string> = ENV) => applyConfig(store, parseConfigFile(yaml, env));

describe('applyConfig', () => {
  test('creates every record, converting USD to micro-USD and hashing the key', async () => {
    const summary = await apply(BASE);
    assert.deepEqual(summary, {
      groups: { created: ['vip'], updated: [], unchanged: [] },
      channels: { created: ['openai-main'], updated: [], unchanged: [] },
      keys: { created: ['alice'], updated: [], unchanged: [] },
      prices: { created: ['gpt-4o'], updated: [], unchanged: [] },
    });
    const [channel] = await store.channels.list();
    assert.deepEqual(channel?.apiKeys, ['sk-upstream-openai']);
    assert.deepEqual(channel?.groups, ['default', 'vip']);
    assert.equal(channel?.weight, 1);
    const key = await store.keys.getByHash(hashApiKey(ALICE));
    assert.equal(key?.name, 'alice');
    assert.equal(key?.keyHint, 'sk-alic…ghij');
    assert.equal(key?.balanceMicros, 10_000_000);
    assert.equal(key?.expiresAt, Date.parse('2030-01-01T00:00:00Z'));
    assert.deepEqual(key?.limits, { requestsPerMinute: 60, dailySpendMicros: 1_500_000 });
    assert.deepEqual(
      (await store.prices.list()).map(({ updatedAt: _updatedAt, version, ...price }) => (assert.match(String(version), /^pv_/), price)),
      [{ model: 'gpt-4o', inputPerMillion: 2_500_000, outputPerMillion: 10_000_000, cacheReadPerMillion: 1_250_000, cacheWritePerMillion: null }],
    );
  });

  test('applying the same file twice changes nothing', async () => {
    await apply(BASE);
    const before = { channels: await store.channels.list(), keys: await store.keys.list(), prices: await store.prices.list() };
    const summary = await apply(BASE);
    assert.deepEqual(summary, {
      groups: { created: [], updated: [], unchanged: ['vip'] },
      channels: { created: [], updated: [], unchanged: ['openai-main'] },
      keys: { created: [], updated: [], unchanged: ['alice'] },
      prices: { created: [], updated: [], unchanged: ['gpt-4o'] },
    });
    assert.deepEqual({ channels: await store.channels.list(), keys: await store.keys.list(), prices: await store.prices.list() }, before);
  });

  test('a changed field updates the record in place; records not in the file are left alone', async () => {
    await apply(BASE);
    const [channel] = await store.channels.list();
    const other = await store.groups.create({ name: 'console-made' });
    const changed = BASE.replace('models: [gpt-4o]', 'models: [gpt-4o, gpt-4o-mini]').replace('input: 2.5', 'input: 2');
    const summary = await apply(changed);
    assert.deepEqual(summary.channels.updated, ['openai-main']);
    assert.deepEqual(summary.prices.updated, ['gpt-4o']);
    assert.deepEqual(summary.keys.unchanged, ['alice']);
    const updated = await store.channels.get(channel!.id);
    assert.deepEqual(updated?.models, ['gpt-4o', 'gpt-4o-mini']);
    assert.deepEqual(await store.groups.get('console-made'), other);
  });

  test('omitting a field returns it to its default', async () => {
    await apply(BASE.replace('    limits:', '    allowedIps: [10.0.0.0/8]\n    limits:'));
    assert.deepEqual((await store.keys.list())[0]?.allowedIps, ['10.0.0.0/8']);
    await apply(BASE);
    assert.equal((await store.keys.list())[0]?.allowedIps, null);
  });

  test('a spent balance is not reset by re-applying, but is set when the file value changes', async () => {
    await apply(BASE);
    const key = (await store.keys.list())[0]!;
    await store.keys.applyCharges([{ keyId: key.id, amountMicros: 2_000_000 }]);
    assert.deepEqual((await apply(BASE)).keys.unchanged, ['alice']);
    assert.equal((await store.keys.get(key.id))?.balanceMicros, 8_000_000);
    assert.deepEqual((await apply(BASE.replace('balance: 10', 'balance: 50'))).keys.updated, ['alice']);
    assert.equal((await store.keys.get(key.id))?.balanceMicros, 50_000_000);
    assert.equal((await store.keys.get(key.id))?.spentMicros, 2_000_000);
  });

  test('a changed secret replaces the key', async () => {
    await apply(BASE);
    const rotated = 'sk-alice-rotated-0123456789abcdef';
    const summary = await apply(BASE, { ...ENV, ALICE_KEY: rotated });
    assert.deepEqual(summary.keys.updated, ['alice']);
    assert.equal(await store.keys.getByHash(hashApiKey(ALICE)), undefined);
    assert.equal((await store.keys.getByHash(hashApiKey(rotated)))?.name, 'alice');
    assert.equal((await store.keys.list()).length, 1);
  });

  test('a file key never takes over an account’s key of the same name (names are unique per account)', async () => {
    const user = await store.users.create({ name: 'ann', email: null, passwordHash: null, balanceMicros: 0, enabled: true });
    const accounts = await store.keys.create({
      name: 'alice',
      group: 'default',
      keyHash: 'c'.repeat(64),
      keyHint: 'sk-…cccc',
      expiresAt: null,
      balanceMicros: null,
      allowedModels: null,
      allowedIps: null,
      enabled: true,
      limits: {},
      userId: user.id,
    });
    const summary = await apply(BASE);
    assert.deepEqual(summary.keys.created, ['alice']);
    assert.deepEqual(await store.keys.get(accounts.id), accounts, 'the account’s key is untouched');
    assert.equal((await store.keys.list()).length, 2);
    assert.deepEqual((await apply(BASE)).keys.unchanged, ['alice'], 'and the file’s key is found again by its secret');
  });

  test('unknown groups and secrets owned by other keys are refused before anything is written', async () => {
    await assert.rejects(
      apply(BASE.replace('groups: [default, vip]', 'groups: [default, ghost]')),
      (error: unknown) => error instanceof ConfigError && error.problems.includes('channels[0].groups: unknown group "ghost"'),
    );
    assert.deepEqual(await store.channels.list(), []);
    assert.equal(await store.groups.get('vip'), undefined);

    await apply(BASE);
    await assert.rejects(
      apply(BASE.replace('name: alice', 'name: alice-2')),
      (error: unknown) => error instanceof ConfigError && error.problems.includes('keys[0].key: this secret already belongs to key "alice"'),
    );
  });

  test('applyConfigFile reads the file from disk with the given environment', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'switchyard-config-'));
    after(() => rmSync(directory, { recursive: true, force: true }));
    const path = join(directory, 'switchyard.yaml');
    writeFileSync(path, BASE);
    const summary = await applyConfigFile({ store, path, env: ENV });
    assert.deepEqual(summary.keys.created, ['alice']);
    await assert.rejects(applyConfigFile({ store, path, env: {} }), /OPENAI_KEY is not set/);
  });

  test('with BLOCK_PRIVATE_UPSTREAMS a channel at a metadata or private address is refused before any write (issue 23 item 18)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'switchyard-config-'));
    after(() => rmSync(directory, { recursive: true, force: true }));
    const path = join(directory, 'switchyard.yaml');
    writeFileSync(path, `channels:\n  - name: metadata\n    provider: openai\n    baseUrl: http://169.254.169.254/v1\n    apiKey: sk-x\n    models: [m]\n`);
    await assert.rejects(
      applyConfigFile({ store, path, env: ENV, blockPrivateUpstreams: true }),
      (error: unknown) =>
        error instanceof ConfigError && error.problems.some((problem) => problem.startsWith('channels[0].baseUrl: 169.254.169.254 is a private')),
    );
    assert.deepEqual(await store.channels.list(), []);
    await applyConfigFile({ store, path, env: ENV });
    assert.equal((await store.channels.list()).length, 1, 'without the setting the channel is saved, as before');
  });
});
