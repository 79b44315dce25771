import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { healthStatus } from '../../../src/relay/routing/health-status.ts';
import type { ChannelHealthView } from '../../../src/relay/routing/channel-health.ts';
import { startHarness, UPSTREAM_SECRET, type Harness } from '../../helpers/gateway-harness.ts';
import { waitFor } from '../../helpers/wait-for.ts';

const VIEW: ChannelHealthView = {
  state: 'closed',
  reason: null,
  openedAt: null,
  retryAt: null,
  successRate: null,
  successWindowMs: 60_000,
  latencyP50: null,
  latencyP95: null,
  requests: 0,
  lastError: null,
  lastSuccessAt: null,
  keys: [{ index: 0, state: 'closed', reason: null }],
  models: [],
};

describe('healthStatus', () => {
  const now = 1_000_000;
  test('each state with its reason', () => {
    assert.equal(healthStatus(false, VIEW, now).status, 'disabled');
    assert.equal(healthStatus(true, VIEW, now).status, 'untested');
    assert.deepEqual(healthStatus(true, { ...VIEW, successRate: 1, lastSuccessAt: now }, now), { status: 'healthy', statusReason: null });
    const lastError = { at: now - 2000, status: 502, code: 'upstream_error', message: 'bad gateway' };
    assert.deepEqual(healthStatus(true, { ...VIEW, successRate: 0.8, lastError }, now), {
      status: 'degraded',
      statusReason: '80% of recent calls succeeded; last error: 502 upstream_error: bad gateway',
    });
    assert.equal(healthStatus(true, { ...VIEW, successRate: 0, lastError }, now).status, 'failing');
    // Outside the breaker's window the last known outcome counts.
    assert.deepEqual(healthStatus(true, { ...VIEW, lastError, lastSuccessAt: now - 5000 }, now), {
      status: 'failing',
      statusReason: 'the last call failed 2 s ago: 502 upstream_error: bad gateway',
    });
    assert.equal(healthStatus(true, { ...VIEW, lastError, lastSuccessAt: now - 1000 }, now).status, 'healthy');
    // One model's own circuit open: the channel still serves its other models.
    const models = [{ model: 'm-1', state: 'open' as const, reason: 'error rate 100%', retryAt: now + 5000 }];
    assert.deepEqual(healthStatus(true, { ...VIEW, successRate: 1, lastSuccessAt: now, models }, now), {
      status: 'degraded',
      statusReason: '1 model out (m-1: error rate 100%)',
    });
    // Every model it serves is out: the channel is out of rotation.
    assert.deepEqual(healthStatus(true, { ...VIEW, successRate: 1, lastSuccessAt: now, models }, now, ['m-1']), {
      status: 'circuit open',
      statusReason: 'every model is out (m-1: error rate 100%); next probe in 5 s',
    });
    assert.deepEqual(healthStatus(true, { ...VIEW, state: 'open', reason: 'error rate 100%', retryAt: now + 30_000 }, now), {
      status: 'circuit open',
      statusReason: 'error rate 100%; next probe in 30 s',
    });
    const keys = [
      { index: 0, state: 'closed' as const, reason: null },
      { index: 1, state: 'open' as const, reason: '401 invalid key' },
    ];
    assert.deepEqual(healthStatus(true, { ...VIEW, successRate: 1, lastSuccessAt: now, keys }, now), {
      status: 'degraded',
      statusReason: '1 of 2 upstream keys out: 401 invalid key',
    });
  });
});

describe('channel health states through the admin API, fed by traffic, probes and manual tests', () => {
  let harness: Harness;
  const lines: Array<Record<string, unknown>> = [];
  before(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
        done();
      },
    });
    harness = await startHarness({
      logger: pino({ level: 'info' }, sink),
      circuit: { windowMs: 60_000, minimumRequests: 3, errorRateThreshold: 0.5, cooldownMs: 60_000, maxCooldownMs: 60_000 },
      healthCheckIntervalMs: 60_000,
    });
  });
  after(() => harness.close());

  const health = async (name: string) => (await harness.admin('GET', `/channels/${name}`)).health;

  test('untested, healthy, failing on a refused connection before the breaker opens, then circuit open; disabled', async () => {
    await harness.addChannel({ provider: 'openai', models: ['good-model'], name: 'good' });
    // Port 9 (discard) on localhost refuses connections: every call ECONNREFUSED.
    await harness.admin('POST', '/channels', {
      name: 'dead',
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: UPSTREAM_SECRET,
      models: ['dead-model'],
      groups: ['default'],
    });
    assert.equal((await health('dead')).status, 'untested');

    const { key } = await harness.addKey();
    const call = (model: string) =>
      fetch(`${harness.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });
    harness.simulator.setDefault({ text: 'ok' });
    assert.equal((await call('good-model')).status, 200);
    assert.equal((await health('good')).status, 'healthy');

    // A failed manual test alone: failing (the breaker needs 3 calls), with the reason.
    const tested = await harness.admin('POST', '/channels/dead/test', {});
    assert.equal(tested.ok, false);
    let dead = await health('dead');
    assert.equal(dead.status, 'failing');
    assert.match(dead.statusReason, /0% of recent calls succeeded; last error: .*(refused|ECONNREFUSED|connect)/i);
    assert.ok(
      lines.some((line) => line.event === 'channel_test_failed' && line.channel === 'dead'),
      'no log line for the failed test',
    );

    // Live traffic: two more failures open the breaker (3 calls, 100% errors).
    for (let index = 0; index < 2; index += 1) assert.equal((await call('dead-model')).status, 502);
    dead = await health('dead');
    assert.equal(dead.status, 'circuit open');
    assert.match(dead.statusReason, /next probe in \d+ s/);
    await waitFor(() => lines.some((line) => line.event === 'circuit_open' && line.channel === 'dead'), 'a circuit_open log line');
    const opened = lines.find((line) => line.event === 'circuit_open');
    assert.equal(typeof opened?.reason, 'string');

    await harness.admin('PATCH', '/channels/dead', { enabled: false });
    assert.equal((await health('dead')).status, 'disabled');
    // No secret in any log line.
    assert.ok(!JSON.stringify(lines).includes(UPSTREAM_SECRET));
    assert.ok(!JSON.stringify(lines).includes(key));
  });
});
