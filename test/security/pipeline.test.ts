import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatCompletion } from './hostile-upstream.ts';
import { startSecurityHarness, type SecurityHarness } from './security-harness.ts';

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
