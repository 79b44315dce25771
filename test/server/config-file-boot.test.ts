import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyConfigFile } from '../../src/config/apply-config-file.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { startProviderSimulator, type ProviderSimulator } from '../simulator/provider-simulator.ts';

const DECLARED_KEY = 'sk-declared-in-config-0123456789abcdef';
const DECLARED_UPSTREAM_SECRET = 'sk-upstream-from-env-9876543210';

/** A gateway started the way main.ts starts it with GATEWAY_CONFIG set. */
describe('a gateway started with a config file', () => {
  let upstream: ProviderSimulator;
  let harness: Harness;
  let directory: string;

  before(async () => {
    // The config's channel needs an address before the gateway starts, so it gets its own simulator.
    upstream = await startProviderSimulator({ expectedKey: DECLARED_UPSTREAM_SECRET });
    directory = mkdtempSync(join(tmpdir(), 'switchyard-config-'));
    const path = join(directory, 'switchyard.yaml');
    writeFileSync(
      path,
      [
        'groups:',
        '  - name: team',
        '    description: The team',
        'channels:',
        '  - name: declared-openai',
        '    provider: openai',
        '    baseUrl: ${UPSTREAM_URL}/v1',
        '    apiKey: ${UPSTREAM_SECRET}',
        '    models: [declared-model, other-model]',
        '    groups: [team]',
        '    modelMap:',
        '      declared-model: upstream-model',
        'keys:',
        '  - name: declared-key',
        '    group: team',
        '    key: ${DECLARED_KEY}',
        'prices:',
        '  - model: declared-model',
        '    input: 1',
        '    output: 2',
        '',
      ].join('\n'),
    );
    const env = { UPSTREAM_URL: upstream.url, UPSTREAM_SECRET: DECLARED_UPSTREAM_SECRET, DECLARED_KEY };
    harness = await startHarness({
      applyConfig: async (store) => {
        await applyConfigFile({ store, path, env });
      },
    });
  });
  after(async () => {
    await harness.close();
    await upstream.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('serves the declared key its group models', async () => {
    const response = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${DECLARED_KEY}` } });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { object: string; data: Array<{ id: string }> };
    assert.equal(body.object, 'list');
    assert.deepEqual(body.data.map((model) => model.id).sort(), ['declared-model', 'other-model']);
  });

  test('routes the declared key through the declared channel with the secret from the environment', async () => {
    upstream.enqueue({ text: 'configured answer' });
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DECLARED_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'declared-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    assert.equal(body.choices[0]?.message.content, 'configured answer');
    const seen = upstream.lastRequest();
    assert.equal(seen?.headers.authorization, `Bearer ${DECLARED_UPSTREAM_SECRET}`);
    assert.equal((seen?.body as { model: string }).model, 'upstream-model');
  });

  test('shows the declared records in the admin API, secrets masked', async () => {
    const groups = await harness.admin('GET', '/groups');
    assert.ok(groups.data.some((group: { name: string; description: string }) => group.name === 'team' && group.description === 'The team'));
    const channels = await harness.admin('GET', '/channels');
    const channel = channels.data.find((entry: { name: string }) => entry.name === 'declared-openai');
    assert.deepEqual(channel.apiKeys, ['sk-u…3210']);
    assert.equal(channel.baseUrl, `${upstream.url}/v1`);
    const keys = await harness.admin('GET', '/keys');
    const key = keys.data.find((entry: { name: string }) => entry.name === 'declared-key');
    assert.equal(key.group, 'team');
    assert.ok(!JSON.stringify(keys).includes(DECLARED_KEY));
    const prices = await harness.admin('GET', '/prices');
    assert.deepEqual(
      prices.data.map((price: { model: string; input: number; output: number }) => [price.model, price.input, price.output]),
      [['declared-model', 1, 2]],
    );
  });
});
