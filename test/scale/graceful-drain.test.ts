import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent, fetch as undiciFetch } from 'undici';
import Database from 'better-sqlite3';
import { startHarness } from '../helpers/gateway-harness.ts';

test('close() with idle keep-alive connections and a keep-alive stream in flight: the stream finishes, /readyz says draining, close is prompt', async () => {
  const harness = await startHarness();
  // One client pool with keep-alive, as SDKs and load balancers use.
  const agent = new Agent({ keepAliveTimeout: 120_000, connections: 4 });
  try {
    await harness.addChannel({ provider: 'openai', models: ['slow-model'] });
    const { key } = await harness.addKey();
    // Two idle keep-alive connections left open in the pool.
    await Promise.all([1, 2].map(async () => (await undiciFetch(`${harness.url}/healthz`, { dispatcher: agent })).text()));

    harness.simulator.enqueue({ text: 'one two three four five', chunkDelayMs: 40, usage: { input: 3, output: 5 } });
    const response = await undiciFetch(`${harness.url}/v1/chat/completions`, {
      dispatcher: agent,
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slow-model', messages: [{ role: 'user', content: 'count' }], stream: true }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = (await reader.read()).value ?? '';

    harness.gateway.drain();
    const ready = await undiciFetch(`${harness.url}/readyz`, { dispatcher: agent });
    assert.equal(ready.status, 503);
    assert.equal(ready.headers.get('connection'), 'close');

    const started = performance.now();
    const closing = harness.gateway.close();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value;
    }
    await closing;
    const elapsed = performance.now() - started;
    assert.ok(received.trimEnd().endsWith('data: [DONE]'), 'the stream in flight was completed');
    assert.ok(elapsed < 3_000, `close() took ${elapsed.toFixed(0)} ms`);
  } finally {
    await agent.close();
    await harness.close();
  }
});

/** One streamed request in each client protocol, to a model the simulator streams slowly (OpenAI upstream). */
const PROTOCOL_STREAMS: Array<{ protocol: string; path: string; body: Record<string, unknown> }> = [
  { protocol: 'openai-chat', path: '/v1/chat/completions', body: { model: 'slow-model', stream: true, messages: [{ role: 'user', content: 'count' }] } },
  {
    protocol: 'anthropic-messages',
    path: '/v1/messages',
    body: { model: 'slow-model', stream: true, max_tokens: 500, messages: [{ role: 'user', content: 'count' }] },
  },
  { protocol: 'gemini', path: '/v1beta/models/slow-model:streamGenerateContent?alt=sse', body: { contents: [{ role: 'user', parts: [{ text: 'count' }] }] } },
  { protocol: 'openai-responses', path: '/v1/responses', body: { model: 'slow-model', stream: true, input: 'count' } },
];

test('a drain that runs out of time ends each open stream with an error event in its own protocol, not a bare cut', async () => {
  const harness = await startHarness();
  try {
    await harness.addChannel({ provider: 'openai', models: ['slow-model'] });
    const { key } = await harness.addKey();
    harness.simulator.setDefault({
      text: Array.from({ length: 200 }, (_, index) => `w${index}`).join(' '),
      chunkDelayMs: 50,
      usage: { input: 3, output: 200 },
    });
    const readers = await Promise.all(
      PROTOCOL_STREAMS.map(async ({ path, body }) => {
        const response = await fetch(`${harness.url}${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'x-api-key': key,
            'x-goog-api-key': key,
            'content-type': 'application/json',
            'anthropic-version': '2023-06-01',
          },
          body: JSON.stringify(body),
        });
        assert.equal(response.status, 200);
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        return { reader, received: (await reader.read()).value ?? '' };
      }),
    );
    const closing = harness.gateway.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(harness.gateway.cutOpenRequests(), PROTOCOL_STREAMS.length, 'every open stream is ended');
    const tails = await Promise.all(
      readers.map(async (stream) => {
        for (;;) {
          const { value, done } = await stream.reader.read();
          if (done) return stream.received;
          stream.received += value;
        }
      }),
    );
    await closing;
    for (const text of tails) assert.ok(text.includes('w0 ') || text.includes('"w0'), 'each stream had been delivering');
    const [openai, anthropic, gemini, responses] = tails.map((text) => text.trimEnd().split('\n\n').at(-1) ?? '');
    // What each client receives last: its protocol's own in-stream error, naming the cause.
    assert.match(
      openai ?? '',
      /^data: \{"error":\{"message":"This gateway instance is shutting down[^"]*","type":"server_error","code":"gateway_shutting_down"/,
    );
    assert.match(anthropic ?? '', /^event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"This gateway instance is shutting down/);
    assert.match(gemini ?? '', /^data: \{"error":\{"code":503,"message":"This gateway instance is shutting down[^"]*","status":"UNAVAILABLE"\}\}$/);
    assert.match(
      responses ?? '',
      /^event: response\.failed\ndata: \{"type":"response\.failed".*"status":"failed".*"message":"This gateway instance is shutting down/,
    );
    // Each was billed for what it delivered and logged before close() returned.
    const database = new Database(harness.databasePath, { readonly: true });
    try {
      const rows = database.prepare('select error_code as code, output_tokens as output, status from usage_logs').all() as Array<{
        code: string;
        output: number;
        status: number;
      }>;
      assert.equal(rows.length, PROTOCOL_STREAMS.length);
      for (const row of rows) {
        assert.equal(row.code, 'gateway_shutting_down');
        assert.ok(row.output > 0, 'the delivered output is billed');
      }
    } finally {
      database.close();
    }
  } finally {
    await harness.close().catch(() => undefined);
  }
});
