import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { boundInputTokens } from '../../src/billing/bound-input-tokens.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/**
 * Issue 23, items 8 and 12: what a reply is billed when the upstream's usage is missing (a stream
 * the client cut) or claims more than the request allowed. Input and output at $1 per million
 * tokens: one micro-USD a token, so costs read as token counts.
 */
describe('usage the gateway bills: bounded by the request, never below the reservation bound for a cut stream', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
    await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 1, output: 1 });
  });
  after(() => harness.close());

  const rowOf = async (keyId: string) => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const logs = await harness.admin('GET', `/logs?key=${keyId}&limit=10`);
      if (logs.data.length > 0) return logs.data[0];
      if (Date.now() > deadline) throw new Error('no usage row');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  const chat = async (key: string, body: Record<string, unknown>) => {
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...body }),
    });
    await response.text();
    return response.status;
  };

  test('a stream whose usage claims completion_tokens 1e300 for max_tokens 10 bills 10 output tokens, flagged (item 12)', async () => {
    const { id, key } = await harness.addKey({ balance: 10 });
    harness.simulator.enqueue({ text: 'short answer', usage: { input: 12, output: 1e300 } });
    assert.equal(await chat(key, { max_tokens: 10, stream: true, stream_options: { include_usage: true } }), 200);
    const row = await rowOf(id);
    assert.equal(row.outputTokens, 10, 'the output the request allowed');
    assert.equal(row.costMicros, 12 + 10);
    assert.ok(row.warnings.includes('clamped:usage.output_tokens'), JSON.stringify(row.warnings));
    console.log(`[figures usage 1e300 for max_tokens 10] billed ${row.costMicros} micro-USD (was 1,000,000,012: $1,000)`);
  });

  test('alternatives multiply the allowance: n 3 × max_tokens 10 bills at most 30 (item 12)', async () => {
    const { id, key } = await harness.addKey({ balance: 10 });
    harness.simulator.enqueue({ text: 'short answer', usage: { input: 12, output: 500 } });
    assert.equal(await chat(key, { max_tokens: 10, n: 3 }), 200);
    const row = await rowOf(id);
    assert.equal(row.outputTokens, 30);
    assert.ok(row.warnings.includes('clamped:usage.output_tokens'));
  });

  test('cache tokens claimed beyond the input are clamped to the input (item 12)', async () => {
    const { id, key } = await harness.addKey({ balance: 10 });
    harness.simulator.enqueue({ text: 'ok', usage: { input: 10, output: 5, cacheRead: 5_000 } });
    assert.equal(await chat(key, { max_tokens: 10 }), 200);
    const row = await rowOf(id);
    assert.equal(row.cacheReadTokens, 10);
    assert.equal(row.costMicros, 10 + 5, 'cache reads are part of the input: never billed beyond it');
    assert.ok(row.warnings.includes('clamped:usage.cache_tokens'), JSON.stringify(row.warnings));
  });

  test('a reply within its allowance is billed as reported, without a warning', async () => {
    const { id, key } = await harness.addKey({ balance: 10 });
    harness.simulator.enqueue({ text: 'ok', usage: { input: 10, output: 7, cacheRead: 4 } });
    assert.equal(await chat(key, { max_tokens: 10 }), 200);
    const row = await rowOf(id);
    assert.deepEqual([row.inputTokens, row.outputTokens, row.cacheReadTokens, row.costMicros], [10, 7, 4, 17]);
    assert.deepEqual(
      row.warnings.filter((warning: string) => warning.startsWith('clamped:usage')),
      [],
    );
  });

  test('a 4,000-character Chinese prompt whose stream the client cuts early bills its input at the reservation bound (item 8)', async () => {
    const { id, key } = await harness.addKey({ balance: 10 });
    const prompt = '中'.repeat(4_000);
    const bound = boundInputTokens({ system: [], messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }], tools: [] } as never);
    harness.simulator.enqueue({ text: 'one two three four five six seven eight nine ten', chunks: 10, chunkDelayMs: 300, usage: { input: 4_010, output: 10 } });
    const controller = new AbortController();
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, max_tokens: 100, messages: [{ role: 'user', content: prompt }] }),
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
    const row = await rowOf(id);
    assert.ok(row.warnings.includes('estimated:usage'), JSON.stringify(row.warnings));
    assert.ok(row.inputTokens >= bound, `billed ${row.inputTokens} input tokens, the reservation bound is ${bound}`);
    console.log(`[figures cut Chinese stream] input billed ${row.inputTokens} tokens (bound ${bound}; the upstream counts ~4,010; was ~1,004)`);
  });
});
