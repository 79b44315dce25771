import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toNewChannel } from '../../src/domain/new-channel.ts';
import { startHarness, UPSTREAM_SECRET, type Harness } from '../helpers/gateway-harness.ts';

type Json = Record<string, any>;

/**
 * Issue 23, item 18: with BLOCK_PRIVATE_UPSTREAMS, a channel address that is (or resolves to) a
 * private, loopback or link-local address — the cloud metadata service at 169.254.169.254 — is
 * refused when saved (400 naming baseUrl), and a connection to one is refused when made, so a
 * channel saved before (or a name rebound in DNS since) reaches nothing either.
 */
describe('BLOCK_PRIVATE_UPSTREAMS', () => {
  let harness: Harness;
  let key: string;

  before(async () => {
    harness = await startHarness({ blockPrivateUpstreams: true });
    ({ key } = await harness.addKey());
  });
  after(() => harness.close());

  for (const baseUrl of ['http://169.254.169.254/v1', 'http://[::ffff:169.254.169.254]/v1', 'http://10.0.0.5:8000/v1', 'http://localhost:11434/v1']) {
    test(`a channel at ${baseUrl} is refused at save time with a 400 naming baseUrl`, async () => {
      const response = await fetch(`${harness.url}/api/admin/channels`, {
        method: 'POST',
        headers: { authorization: 'Bearer sya-test-admin-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ name: `metadata-${encodeURIComponent(baseUrl)}`, provider: 'openai', baseUrl, apiKey: UPSTREAM_SECRET, models: ['m'] }),
      });
      const body = (await response.json()) as Json;
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(JSON.stringify(body), /baseUrl/);
      assert.match(JSON.stringify(body), /BLOCK_PRIVATE_UPSTREAMS/);
    });
  }

  test('moving a saved channel to a private address is refused too', async () => {
    const channel = await harness.admin('POST', '/channels', {
      name: 'public',
      provider: 'openai',
      baseUrl: 'https://8.8.8.8/v1',
      apiKey: UPSTREAM_SECRET,
      models: ['p'],
    });
    await harness.admin('PATCH', `/channels/${channel.id}`, { baseUrl: 'http://169.254.169.254/v1' }, 400);
  });

  for (const host of ['127.0.0.1', 'localhost']) {
    test(`a channel already stored at ${host} (saved before, or rebound in DNS) is never connected to`, async () => {
      const port = new URL(harness.simulator.url).port;
      const model = `stored-${host}`;
      // Written past the admin API, as a channel saved before the setting was turned on.
      await harness.gateway.store.channels.create(
        toNewChannel({ name: `stored-${host}`, provider: 'openai', baseUrl: `http://${host}:${port}/v1`, apiKey: UPSTREAM_SECRET, models: [model] }),
      );
      // Any admin change reloads the snapshot the requests are routed from.
      await harness.admin('PATCH', '/groups/default', { description: `reloaded for ${host}` });
      const before = harness.simulator.requests.length;
      const response = await fetch(`${harness.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });
      const body = (await response.json()) as Json;
      assert.equal(harness.simulator.requests.length, before, 'the simulator on loopback got nothing');
      assert.equal(response.status, 502, JSON.stringify(body));
      assert.match(body.error.message, /non-public address/);
    });
  }
});
