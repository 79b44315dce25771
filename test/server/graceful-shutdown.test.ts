import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/**
 * Starts a streamed chat completion and returns a reader over its body. `keepAlive: false`
 * sends `connection: close`, like curl; fetch keeps the connection alive, which close() must not
 * wait out (the keep-alive timeout is 65 s).
 */
async function startStream(harness: Harness, key: string, keepAlive: boolean) {
  const body = JSON.stringify({ model: 'slow-model', messages: [{ role: 'user', content: 'count' }], stream: true });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  if (keepAlive) {
    const response = await fetch(`${harness.url}/v1/chat/completions`, { method: 'POST', headers, body });
    assert.equal(response.status, 200);
    return response.body!.pipeThrough(new TextDecoderStream()).getReader();
  }
  const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    const outgoing = request(`${harness.url}/v1/chat/completions`, { method: 'POST', headers, agent: false }, resolve);
    outgoing.on('error', reject);
    outgoing.end(body);
  });
  assert.equal(response.statusCode, 200);
  return (Readable.toWeb(response) as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
}

for (const keepAlive of [false, true]) {
  test(`close() lets a stream in flight finish, logs it, then refuses new connections (${keepAlive ? 'keep-alive client' : 'connection: close'})`, () =>
    drainTest(keepAlive));
}

async function drainTest(keepAlive: boolean): Promise<void> {
  const harness = await startHarness();
  try {
    await harness.addChannel({ provider: 'openai', models: ['slow-model'] });
    const { key } = await harness.addKey();
    harness.simulator.enqueue({ text: 'one two three four five six', chunkDelayMs: 30, usage: { input: 9, output: 6 } });

    const reader = await startStream(harness, key, keepAlive);
    let received = '';
    // Read until the first content delta has arrived, so the stream is certainly mid-flight.
    while (!received.includes('"content":"one"')) {
      const { value, done } = await reader.read();
      assert.ok(!done, 'the stream ended before its first word');
      received += value;
    }
    assert.equal(harness.simulator.activeRequests(), 1, 'the upstream stream should still be open');

    const closing = harness.gateway.close();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value;
    }
    await closing;

    const words = [...received.matchAll(/"content":"([^"]*)"/g)].map((match) => match[1]).join('');
    assert.equal(words, 'one two three four five six');
    assert.ok(received.trimEnd().endsWith('data: [DONE]'), 'the stream was cut before [DONE]');

    await assert.rejects(fetch(`${harness.url}/healthz`), 'a closed gateway still accepted a connection');

    // The usage writer flushed before the store closed.
    const database = new Database(harness.databasePath, { readonly: true });
    try {
      const row = database.prepare('SELECT model, status, stream, output_tokens FROM usage_logs').get() as Record<string, unknown>;
      assert.deepEqual({ ...row }, { model: 'slow-model', status: 200, stream: 1, output_tokens: 6 });
    } finally {
      database.close();
    }
  } finally {
    await harness.close();
  }
}
