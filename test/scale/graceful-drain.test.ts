import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent, fetch as undiciFetch } from 'undici';
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
