import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/** `X-Switchyard-Timing` on a request asks for a `Server-Timing` header naming the gateway's phases. */
describe('Server-Timing on request', () => {
  let harness: Harness;
  let key: string;

  before(async () => {
    harness = await startHarness();
    await harness.addChannel({ provider: 'openai', models: ['timed'] });
    ({ key } = await harness.addKey());
  });
  after(() => harness.close());

  const ask = (stream: boolean, timing: boolean) =>
    fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(timing ? { 'x-switchyard-timing': '1' } : {}) },
      body: JSON.stringify({ model: 'timed', messages: [{ role: 'user', content: 'hi' }], ...(stream ? { stream: true } : {}) }),
    });

  const phases = (header: string | null) =>
    (header ?? '').split(', ').map((entry) => {
      const match = /^([a-z-]+);dur=(\d+\.\d{3})$/.exec(entry);
      assert.ok(match, `not a Server-Timing entry: ${entry}`);
      return match[1];
    });

  test('a plain reply names auth, admission, routing, the upstream and the total', async () => {
    const response = await ask(false, true);
    assert.equal(response.status, 200);
    await response.text();
    assert.deepEqual(phases(response.headers.get('server-timing')), ['auth', 'admit', 'route', 'upstream', 'total']);
  });

  test("a stream adds the wait for the upstream's first chunk", async () => {
    const response = await ask(true, true);
    assert.equal(response.status, 200);
    await response.text();
    assert.deepEqual(phases(response.headers.get('server-timing')), ['auth', 'admit', 'route', 'upstream', 'first-chunk', 'total']);
  });

  test('callers who do not ask get no Server-Timing header', async () => {
    const response = await ask(false, false);
    await response.text();
    assert.equal(response.headers.get('server-timing'), null);
  });
});
