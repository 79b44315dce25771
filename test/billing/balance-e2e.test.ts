import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { callSurface } from '../access/surface-calls.ts';

// Output at $1 per million tokens = 1 micro-USD per token; input free. With max_tokens 100 and
// the upstream reporting exactly 100 output tokens, the reservation equals the final cost.
const COST_PER_REQUEST = 100;

/** Polls an asynchronous reading until it equals `expected` (at most 5 s), then asserts it. */
async function waitForValue<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const deadline = performance.now() + 5_000;
  let value = await read();
  while (value !== expected && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  assert.equal(value, expected);
}

describe('balances under concurrency', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
    await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 0, output: 1 });
    harness.simulator.setDefault({ text: 'ok', usage: { input: 40, output: 100 }, delayMs: 20 });
  });
  after(() => harness.close());

  const balanceOf = async (id: string) => (await harness.admin('GET', `/keys/${id}`)).balance as number;

  test('50 parallel requests against a balance for exactly 7: 7 succeed, 43 get 403, final balance exact', async () => {
    const { id, key } = await harness.addKey({ balance: (7 * COST_PER_REQUEST) / 1_000_000 });
    const replies = await Promise.all(Array.from({ length: 50 }, () => callSurface(harness.url, 'openai-chat', { key })));
    const statuses = replies.map((reply) => reply.status);
    assert.equal(statuses.filter((status) => status === 200).length, 7, JSON.stringify(statuses));
    const refused = replies.filter((reply) => reply.status !== 200);
    assert.equal(refused.length, 43);
    for (const reply of refused) {
      assert.equal(reply.status, 403);
      assert.equal(reply.code, 'insufficient_balance');
    }
    const me: any = await (await fetch(`${harness.url}/api/me`, { headers: { authorization: `Bearer ${key}` } })).json();
    assert.equal(me.balance, 0);
    // The database catches up off the hot path (the charge writer flushes every 250 ms), to the micro-unit.
    await waitForValue(() => balanceOf(id), 0);
    const logs = await harness.admin('GET', `/logs?key=${id}&limit=100`);
    assert.equal(logs.data.length, 50);
    const billed = logs.data.filter((row: any) => row.status === 200);
    assert.deepEqual(
      billed.map((row: any) => row.costMicros),
      Array(7).fill(COST_PER_REQUEST),
    );
    assert.equal(logs.data.filter((row: any) => row.errorCode === 'insufficient_balance').length, 43);
  });

  test('a failed upstream call is refunded in full', async () => {
    const { key } = await harness.addKey({ balance: COST_PER_REQUEST / 1_000_000 });
    harness.simulator.enqueue({ fault: { type: 'status', status: 400, message: 'bad request upstream' } });
    const failed = await callSurface(harness.url, 'openai-chat', { key });
    assert.equal(failed.status, 400);
    const ok = await callSurface(harness.url, 'openai-chat', { key });
    assert.equal(ok.status, 200, 'the refund left room for one more request');
  });

  test("an operator's new balance takes effect on the next request, on any surface", async () => {
    const { id, key } = await harness.addKey({ balance: COST_PER_REQUEST / 1_000_000 });
    assert.equal((await callSurface(harness.url, 'openai-chat', { key })).status, 200);
    assert.equal((await callSurface(harness.url, 'openai-chat', { key })).code, 'insufficient_balance');
    // The PATCH sets an absolute balance; charges still unwritten at that moment are applied on
    // top of it by the store, so wait until the spend is persisted to make the outcome exact.
    await waitForValue(() => balanceOf(id), 0);
    await harness.admin('PATCH', `/keys/${id}`, { balance: (2 * COST_PER_REQUEST) / 1_000_000 });
    assert.equal((await callSurface(harness.url, 'anthropic', { key })).status, 200);
    assert.equal((await callSurface(harness.url, 'gemini', { key })).status, 200);
    assert.equal((await callSurface(harness.url, 'openai-chat', { key })).code, 'insufficient_balance');
  });

  test('a stream cut before usage arrives bills the output actually delivered', async () => {
    const { id, key } = await harness.addKey({ balance: 1 });
    harness.simulator.enqueue({ text: 'one two three four five six seven eight', chunks: 8, fault: { type: 'reset', afterChunks: 4 } });
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, max_tokens: 100, messages: [{ role: 'user', content: 'count' }] }),
    });
    await response.text().catch(() => '');
    const logs = await harness.admin('GET', `/logs?key=${id}`);
    const row = logs.data[0];
    // Never more than the client's own limit (max_tokens 100), never nothing.
    assert.ok(row.outputTokens > 0 && row.outputTokens <= 100, `billed ${row.outputTokens} delivered tokens`);
    assert.equal(row.costMicros, row.outputTokens * 1);
    assert.ok(row.warnings.includes('estimated:usage'), JSON.stringify(row.warnings));
  });
});

describe('IP fences behind proxies', () => {
  const fenced = { allowedIps: ['203.0.113.0/24'] };

  test('a spoofed X-Forwarded-For from an untrusted peer does not pass the fence', async () => {
    const harness = await startHarness();
    try {
      await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
      const { key } = await harness.addKey(fenced);
      for (const headers of [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }] as Array<Record<string, string>>) {
        const response = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${key}`, ...headers } });
        assert.equal(response.status, 403);
        assert.equal(((await response.json()) as any).error.code, 'ip_not_allowed');
      }
    } finally {
      await harness.close();
    }
  });

  test('the same header from a trusted proxy is believed', async () => {
    const harness = await startHarness({ trustedProxies: ['127.0.0.1', '::1'] });
    try {
      await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
      const { key } = await harness.addKey(fenced);
      const allowed = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.9' } });
      assert.equal(allowed.status, 200);
      const outside = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '198.51.100.1' } });
      assert.equal(outside.status, 403);
      assert.match(((await outside.json()) as any).error.message, /may not be used from 198\.51\.100\.1/);
    } finally {
      await harness.close();
    }
  });
});
