import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatCompletion } from './hostile-upstream.ts';
import { CHANNEL_SECRET, eventually, startSecurityHarness, type SecurityHarness } from './security-harness.ts';

/**
 * Issue 14's items that live in the generation pipeline (run-generation, pipe-stream, billing),
 * each replayed against a real gateway in front of a hostile upstream on loopback. Every test
 * here failed on the code before its fix.
 */

describe('one JSON depth rule on both lanes', () => {
  let h: SecurityHarness;
  let key: string;
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['deep-model'] });
    key = (await h.addKey()).key;
    h.upstream.answer((request) => ({ body: chatCompletion((request.body as any).model, { prompt: 1, completion: 1 }) }));
  });
  after(() => h.close());

  test('a body nested 100k levels deep is refused with a 400 on the passthrough lane, never forwarded', async () => {
    const depth = 100_000;
    const raw = `{"model":"deep-model","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const before = h.upstream.requests.length;
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: raw,
    });
    const text = await response.text();
    assert.equal(response.status, 400, text);
    assert.match(JSON.parse(text).error.message, /nests more than 256 levels/);
    assert.equal(h.upstream.requests.length, before, 'the upstream never saw it');
  });

  test('the same limit as the translated lane: 256 levels pass, 257 do not', async () => {
    const nested = (levels: number) => `{"model":"deep-model","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const send = (raw: string) =>
      fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: raw });
    // The body object is level 1, so its member may nest 255 more.
    assert.equal((await send(nested(255))).status, 200);
    assert.equal((await send(nested(256))).status, 400);
  });
});

describe('in-stream upstream errors are redacted', () => {
  let h: SecurityHarness;
  let key: string;
  let keyId: string;
  const FRAGMENT = CHANNEL_SECRET.slice(8, 18);
  before(async () => {
    h = await startSecurityHarness();
    await h.addHostileChannel({ models: ['leaky-model'] });
    ({ id: keyId, key } = await h.addKey());
    h.upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: {"id":"c1","object":"chat.completion.chunk","model":"leaky-model","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}\n\n`);
      setTimeout(() => {
        response.end(`data: {"error":{"message":"Incorrect API key provided: ${CHANNEL_SECRET}","type":"invalid_request_error","code":"${CHANNEL_SECRET}"}}\n\n`);
      }, 20);
      return undefined;
    });
  });
  after(() => h.close());

  test('the passthrough and translated lanes never show the channel key from an upstream error event, nor log it', async () => {
    const passthrough = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'leaky-model', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const passthroughText = await passthrough.text();
    assert.match(passthroughText, /Incorrect API key provided/);
    assert.ok(!passthroughText.includes(FRAGMENT), passthroughText);

    const translated = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'leaky-model', stream: true, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const translatedText = await translated.text();
    assert.match(translatedText, /event: error/);
    assert.ok(!translatedText.includes(FRAGMENT), translatedText);

    const rows = async () => (await h.admin('GET', `/logs?key=${keyId}&limit=10`)).data as unknown[];
    assert.ok(await eventually(async () => (await rows()).length === 2));
    const everything = JSON.stringify(await rows()) + JSON.stringify(await h.admin('GET', '/channels')) + h.logLines();
    assert.ok(!everything.includes(FRAGMENT), 'the secret reached the usage log, channel health or the process log');
  });
});
