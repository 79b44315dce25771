import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startHarness, UPSTREAM_SECRET, type Harness } from '../helpers/gateway-harness.ts';

/**
 * Moderation from the official OpenAI SDK (priced as text input tokens) and rerank by HTTP in the
 * Cohere/Jina shape, to Cohere, Jina and OpenAI-compatible channels in the simulator, priced per
 * search unit to the micro-USD; a failed-over rerank billed once.
 */
describe('moderation and rerank', () => {
  let harness: Harness;
  let key: string;
  let keyId: string;
  let openai: OpenAI;

  before(async () => {
    harness = await startHarness();
    await harness.addChannel({ provider: 'openai', models: ['omni-moderation-latest', 'rerank-compat'], modelMap: { 'rerank-compat': 'bge-reranker' } });
    await harness.addChannel({
      provider: 'cohere',
      models: ['rerank-cohere', 'rerank-failover'],
      modelMap: { 'rerank-cohere': 'rerank-v3.5', 'rerank-failover': 'rerank-v3.5' },
      priority: 1,
    });
    await harness.addChannel({
      provider: 'jina',
      models: ['rerank-jina', 'rerank-failover'],
      modelMap: { 'rerank-jina': 'jina-reranker-v2-base-multilingual', 'rerank-failover': 'jina-reranker-v2-base-multilingual' },
      priority: 0,
    });
    await harness.admin('POST', '/prices', { model: 'omni-moderation-latest', input: 0.4, output: 0 });
    // Cohere rerank-v3.5: $2 per 1,000 searches. Jina: $0.02 per million tokens.
    for (const model of ['rerank-cohere', 'rerank-failover', 'rerank-compat'])
      await harness.admin('POST', '/prices', { model, input: 0, output: 0, perSearchUnit: 0.002 });
    await harness.admin('POST', '/prices', { model: 'rerank-jina', input: 0.02, output: 0 });
    ({ key, id: keyId } = await harness.addKey({ balance: 5 }));
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(() => harness.close());

  const lastLog = async () => (await harness.admin('GET', `/logs?key=${keyId}&limit=1`)).data[0];
  const rerank = (body: unknown) =>
    fetch(`${harness.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const documents = Array.from({ length: 150 }, (_, index) => (index === 7 ? 'the lighthouse keeper lit the lamp' : `filler document ${index}`));

  test('moderations.create is relayed and priced as text input tokens', async () => {
    const input = 'I will kill the lights when I leave.';
    const reply = await openai.moderations.create({ model: 'omni-moderation-latest', input });
    assert.equal(reply.results[0]?.flagged, true);
    const row = await lastLog();
    assert.equal(row.status, 200);
    assert.equal(row.costMicros, Math.round(Math.ceil(input.length / 4) * 0.4));
  });

  test('rerank to Cohere (/v2/rerank): billed by the search units Cohere reports', async () => {
    const response = await rerank({ model: 'rerank-cohere', query: 'lighthouse lamp', documents, top_n: 3 });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { results: { index: number }[] };
    assert.equal(body.results[0]?.index, 7);
    assert.equal(harness.simulator.lastRequest()?.path, '/v2/rerank');
    assert.equal(harness.simulator.lastRequest()?.headers.authorization, `Bearer ${UPSTREAM_SECRET}`);
    assert.equal((await lastLog()).costMicros, 2 * 2_000);
  });

  test('rerank to Jina (/v1/rerank): billed by the tokens Jina reports', async () => {
    const response = await rerank({ model: 'rerank-jina', query: 'lighthouse', documents: documents.slice(0, 10) });
    const body = (await response.json()) as { usage: { total_tokens: number } };
    assert.equal(response.status, 200);
    assert.equal((await lastLog()).costMicros, Math.round(body.usage.total_tokens * 0.02));
  });

  test('rerank through an OpenAI-compatible channel whose host serves it', async () => {
    const response = await rerank({ model: 'rerank-compat', query: 'lamp', documents: ['a lamp', 'a chair'] });
    assert.equal(response.status, 200);
    assert.equal(harness.simulator.lastRequest()?.path, '/v1/rerank');
    assert.equal((harness.simulator.lastRequest()?.body as { model: string }).model, 'bge-reranker');
    assert.equal((await lastLog()).costMicros, 2_000);
  });

  test('a failed-over rerank is billed once, for the channel that answered', async () => {
    harness.simulator.enqueue({ fault: { type: 'status', status: 503 } });
    const response = await rerank({ model: 'rerank-failover', query: 'lamp', documents: documents.slice(0, 50) });
    assert.equal(response.status, 200);
    const row = await lastLog();
    assert.equal(row.attempts.length, 2);
    assert.equal(row.attempts[0].status, 503);
    assert.equal(row.costMicros, 2_000);
  });

  test("bad rerank requests are refused in OpenAI's shape before the upstream", async () => {
    const before = harness.simulator.requests.length;
    for (const [body, param] of [
      [{ model: 'rerank-cohere', documents: ['a'] }, 'query'],
      [{ model: 'rerank-cohere', query: 'q', documents: [] }, 'documents'],
      [{ model: 'rerank-cohere', query: 'q', documents: ['a'], extra: 1 }, 'extra'],
    ] as const) {
      const response = await rerank(body);
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { error: { param: string } }).error.param, param);
    }
    assert.equal(harness.simulator.requests.length, before);
  });
});
