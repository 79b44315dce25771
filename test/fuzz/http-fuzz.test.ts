import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { junkBody } from './junk-bodies.ts';

type Shape = 'openai' | 'anthropic' | 'gemini';

/**
 * Each surface is fuzzed against a model served by a channel of a *different* protocol, so the
 * junk is decoded and translated (the passthrough lane would hand it to the upstream unread).
 */
const SURFACES: Array<{ name: string; path: string; shape: Shape; headers: (key: string) => Record<string, string> }> = [
  { name: 'openai chat', path: '/v1/chat/completions', shape: 'openai', headers: (key) => ({ authorization: `Bearer ${key}` }) },
  { name: 'openai responses', path: '/v1/responses', shape: 'openai', headers: (key) => ({ authorization: `Bearer ${key}` }) },
  { name: 'anthropic messages', path: '/v1/messages', shape: 'anthropic', headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }) },
  {
    name: 'anthropic count_tokens',
    path: '/v1/messages/count_tokens',
    shape: 'anthropic',
    headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
  },
  { name: 'gemini generateContent', path: '/v1beta/models/fuzz-anthropic:generateContent', shape: 'gemini', headers: (key) => ({ 'x-goog-api-key': key }) },
  {
    name: 'gemini streamGenerateContent',
    path: '/v1beta/models/fuzz-anthropic:streamGenerateContent?alt=sse',
    shape: 'gemini',
    headers: (key) => ({ 'x-goog-api-key': key }),
  },
];

/** The caller's own error envelope, exactly as its SDK parses it. */
function assertErrorShape(shape: Shape, status: number, text: string): void {
  const body = JSON.parse(text) as Record<string, any>;
  switch (shape) {
    case 'openai':
      assert.equal(typeof body.error?.message, 'string', text);
      assert.equal(typeof body.error?.type, 'string', text);
      return;
    case 'anthropic':
      assert.equal(body.type, 'error', text);
      assert.equal(typeof body.error?.type, 'string', text);
      assert.equal(typeof body.error?.message, 'string', text);
      return;
    case 'gemini':
      assert.equal(body.error?.code, status, text);
      assert.equal(typeof body.error?.message, 'string', text);
      assert.equal(typeof body.error?.status, 'string', text);
      return;
    default: {
      const unreachable: never = shape;
      throw new Error(`unknown shape ${String(unreachable)}`);
    }
  }
}

describe('HTTP fuzz: junk bodies never crash a surface', () => {
  let harness: Harness;
  let key: string;

  before(async () => {
    harness = await startHarness();
    await harness.addChannel({ provider: 'gemini', models: ['fuzz-gemini'] });
    await harness.addChannel({ provider: 'anthropic', models: ['fuzz-anthropic'] });
    ({ key } = await harness.addKey());
  });
  after(() => harness.close());

  for (const surface of SURFACES) {
    test(`${surface.name}: 4xx in the caller's shape, never 5xx`, async () => {
      const model = surface.shape === 'gemini' ? 'fuzz-anthropic' : 'fuzz-gemini';
      await fc.assert(
        fc.asyncProperty(junkBody(model), async (body) => {
          const response = await fetch(`${harness.url}${surface.path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...surface.headers(key) },
            body,
          });
          const text = await response.text();
          assert.ok(response.status < 500, `${response.status} for ${preview(body)}: ${text.slice(0, 300)}`);
          // A body that happens to be valid is served (by the simulator); anything else is the caller's fault.
          if (response.status >= 400) assertErrorShape(surface.shape, response.status, text);
        }),
        { numRuns: 60, seed: 20_240_601 },
      );
    });
  }

  test("a body over the size limit is a 413 in the caller's shape", async () => {
    const huge = JSON.stringify({ model: 'fuzz-gemini', messages: [{ role: 'user', content: 'x'.repeat(1_200_000) }] });
    for (const surface of SURFACES) {
      const response = await fetch(`${harness.url}${surface.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...surface.headers(key) },
        body: huge,
      });
      assert.equal(response.status, 413, surface.name);
      assertErrorShape(surface.shape, 413, await response.text());
    }
  });

  // The passthrough lane never decodes the body, so the codecs' depth check does not run there:
  // an unchanged body goes out as received (the upstream judges it), and one the gateway must
  // re-serialise (a model map) turns the serializer's stack overflow into a 400. Never a 500.
  test('a too-deep body on the passthrough lane never crashes the gateway', async () => {
    await harness.addChannel({ provider: 'openai', models: ['fuzz-openai'] });
    const schema = `${'{"properties":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: `{"model":"fuzz-openai","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${schema}}}]}`,
    });
    assert.ok(response.status < 500, await response.text());
    await harness.addChannel({ provider: 'openai', models: ['fuzz-mapped'], modelMap: { 'fuzz-mapped': 'upstream-name' } });
    const mapped = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: `{"model":"fuzz-mapped","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${schema}}}]}`,
    });
    assert.equal(mapped.status, 400, await mapped.text());
  });

  test('the gateway still serves after the fuzzing', async () => {
    const health = await fetch(`${harness.url}/healthz`);
    assert.equal(health.status, 200);
    harness.simulator.enqueue({ text: 'still here', usage: { input: 3, output: 2 } });
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'fuzz-gemini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    assert.equal(body.choices[0]?.message.content, 'still here');
  });
});

function preview(body: Uint8Array | string): string {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('latin1');
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…(${text.length} chars)` : text);
}
