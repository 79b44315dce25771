import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { startProviderSimulator, type ProviderSimulator } from '../simulator/provider-simulator.ts';
import { waitFor } from '../helpers/wait-for.ts';

describe('many streams at once', () => {
  let harness: Harness;
  let key: string;

  before(async () => {
    harness = await startHarness();
    await harness.addChannel({ provider: 'openai', models: ['oa'] });
    await harness.addChannel({ provider: 'anthropic', models: ['an'] });
    ({ key } = await harness.addKey());
  });
  after(() => harness.close());

  test('1,000 concurrent streaming requests all complete whole, and nothing is left open', async () => {
    harness.simulator.setDefault({ text: 'a b c d e f g h', chunkDelayMs: 5 });
    const dispatcher = new Agent({ connections: 1_100, pipelining: 1 });
    const count = 1_000;
    const streamOnce = async (index: number) => {
      // Half the streams are translated (OpenAI client → Anthropic upstream).
      const model = index % 2 === 0 ? 'oa' : 'an';
      const response = await request(`${harness.url}/v1/chat/completions`, {
        method: 'POST',
        dispatcher,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: `n${index}` }] }),
      });
      assert.equal(response.statusCode, 200);
      const body = await response.body.text();
      let text = '';
      for (const line of body.split('\n')) {
        if (!line.startsWith('data: {')) continue;
        text += JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? '';
      }
      assert.ok(body.trimEnd().endsWith('data: [DONE]'), 'stream ended properly');
      return text;
    };
    const texts = await Promise.all(Array.from({ length: count }, (_, index) => streamOnce(index)));
    assert.equal(texts.filter((text) => text === 'a b c d e f g h').length, count);
    await dispatcher.close();

    // Nothing leaked: no open streams, no upstream requests still active, every request logged.
    await waitFor(() => harness.simulator.activeRequests() === 0, 'upstream requests finished');
    const metrics = await (await fetch(`${harness.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    assert.match(metrics, /^switchyard_open_streams 0$/m);
    const okCount = [...metrics.matchAll(/^switchyard_requests_total\{[^}]*status="200"\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    assert.equal(okCount, count);
  });
});

describe('several upstream keys on one channel', () => {
  let harness: Harness;
  let upstream: ProviderSimulator;

  before(async () => {
    harness = await startHarness();
    upstream = await startProviderSimulator({ expectedKey: 'sk-good-key-2' });
  });
  after(async () => {
    await harness.close();
    await upstream.close();
  });

  test('keys rotate; a key the upstream refuses is taken out alone', async () => {
    await harness.addChannel({
      provider: 'openai',
      models: ['multi'],
      baseUrl: `${upstream.url}/v1`,
      apiKey: undefined,
      apiKeys: ['sk-bad-key-1', 'sk-good-key-2'],
    });
    const { key } = await harness.addKey();
    const ask = async () => {
      const response = await fetch(`${harness.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'multi', messages: [{ role: 'user', content: 'hi' }] }),
      });
      return response.status;
    };
    // The first request meets the bad key: it is taken out and the same channel retried with the next key.
    const statuses = [];
    for (let index = 0; index < 6; index += 1) statuses.push(await ask());
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200]);
    const usedKeys = upstream.requests.map((entry) => entry.headers.authorization);
    assert.equal(usedKeys.filter((value) => value === 'Bearer sk-bad-key-1').length, 1, 'the bad key was tried once, then taken out');
    const { data } = await harness.admin('GET', '/channels');
    const health = data[0].health;
    assert.equal(health.state, 'closed', 'the channel itself stays in service');
    assert.equal(health.keys[0].state, 'open');
    assert.match(health.keys[0].reason, /401/);
    assert.equal(health.keys[1].state, 'closed');
  });
});
