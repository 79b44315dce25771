import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../../helpers/gateway-harness.ts';

/**
 * Issue 24, item 1: an OpenAI-compatible channel added without `/v1` answered "404 Unknown route"
 * to about half the traffic, which went to the client as `404 upstream_error`, never retried,
 * while the channel stayed "healthy". A 404 with no provider error at all, a 404 naming a missing
 * model the channel claims, and a 405 are the channel's configuration fault: failed over, counted
 * against the channel × model, shown; and said when the channel is saved or tested.
 */
describe('a channel with a wrong base address', () => {
  let harness: Harness;
  let key: string;
  let good: { id: string };
  let wrong: { id: string; warnings?: string[] };

  before(async () => {
    harness = await startHarness();
    harness.simulator.setDefault({ text: 'served by the good channel' });
    good = await harness.addChannel({ provider: 'openai', models: ['dual-model'] });
    // Tried first on every request (higher priority), so each request meets it.
    wrong = await harness.addChannel({ provider: 'openai', baseUrl: harness.simulator.url, models: ['dual-model'], priority: 10 });
    ({ key } = await harness.addKey());
  });
  after(() => harness.close());

  const chat = (model: string) =>
    fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });

  test('saving it answers with a warning about the missing version segment; a correct one has none', async () => {
    assert.equal(wrong.warnings?.length, 1);
    assert.match(wrong.warnings![0]!, /no API version segment.*\/v1/);
    assert.equal((good as { warnings?: string[] }).warnings, undefined);
    const patched = await harness.admin('PATCH', `/channels/${wrong.id}`, { weight: 2 });
    assert.equal(patched.warnings?.length, 1);
  });

  test('its Test answers with what to check', async () => {
    const result = await harness.admin('POST', `/channels/${wrong.id}/test`, {});
    assert.equal(result.ok, false);
    assert.equal(result.status, 404);
    assert.match(result.warnings.join(' '), /no such route or model.*base address/);
  });

  test('live traffic fails over to the good channel, and the wrong one is counted and shown', async () => {
    for (let index = 0; index < 8; index += 1) {
      const response = await chat('dual-model');
      assert.equal(response.status, 200, await response.clone().text());
      assert.equal(((await response.json()) as any).choices[0].message.content, 'served by the good channel');
    }
    const channel = await harness.admin('GET', `/channels/${wrong.id}`);
    assert.notEqual(channel.health.status, 'healthy');
    assert.match(channel.health.lastError.message, /no such route or model/);
    assert.equal(channel.health.lastError.status, 404);
    // The channel × model circuit opened (5 or more calls, all failed), so the wrong channel is skipped.
    assert.deepEqual(
      channel.health.models.map((entry: { model: string; state: string }) => [entry.model, entry.state]),
      [['dual-model', 'open']],
    );
    assert.equal((await harness.admin('GET', `/channels/${good.id}`)).health.status, 'healthy');

    // The model check counts it as not accepting requests.
    const diagnosis = (await (await fetch(`${harness.url}/api/diagnose?model=dual-model`, { headers: { authorization: `Bearer ${key}` } })).json()) as any;
    const availability = diagnosis.checks.find((check: { name: string }) => check.name === 'channel-availability');
    assert.match(availability.detail, /2 enabled channel\(s\).*1 currently accepting/);
  });
});

describe('a tenant cannot open a circuit with 404s', () => {
  let harness: Harness;
  let key: string;
  let channel: { id: string };

  before(async () => {
    harness = await startHarness();
    channel = await harness.addChannel({ provider: 'anthropic', models: ['claude-real'] });
    ({ key } = await harness.addKey());
  });
  after(() => harness.close());

  const messages = (model: string) =>
    fetch(`${harness.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    });

  test('a model the channel does not claim never reaches it', async () => {
    const before = harness.simulator.requests.length;
    for (let index = 0; index < 10; index += 1) assert.equal((await messages('claude-bogus')).status, 404);
    assert.equal(harness.simulator.requests.length, before);
    const health = (await harness.admin('GET', `/channels/${channel.id}`)).health;
    assert.equal(health.lastError, null);
    assert.deepEqual(health.models, []);
  });

  test("the provider's generic not-found (a file or resource the client named) stays the client's", async () => {
    for (let index = 0; index < 10; index += 1) {
      harness.simulator.enqueue({ fault: { type: 'status', status: 404, message: 'file_bogus not found' } });
      const response = await messages('claude-real');
      assert.equal(response.status, 404);
      assert.equal(((await response.json()) as any).error.type, 'not_found_error');
    }
    const health = (await harness.admin('GET', `/channels/${channel.id}`)).health;
    assert.equal(health.state, 'closed');
    assert.deepEqual(health.models, []);
    assert.equal(health.lastError, null);
  });
});
