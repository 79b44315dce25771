import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { Channel } from '../../src/domain/channel.ts';
import type { UsageLogEntry } from '../../src/domain/usage-log-entry.ts';
import { notifyCircuitTransitions } from '../../src/notify/notify-circuit-transitions.ts';
import { scanAccounts, type AccountSources } from '../../src/notify/scan-accounts.ts';
import { scanTraffic } from '../../src/notify/scan-traffic.ts';
import { ChannelHealth } from '../../src/relay/routing/channel-health.ts';
import type { SnapshotHolder } from '../../src/snapshot/snapshot-holder.ts';
import { startNotifyRig, type NotifyRig } from './notify-fixture.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;

describe('alert scenarios on an injected clock', () => {
  let rig: NotifyRig;
  let channelId = '';
  const sentEvents = async (event: string) => (await rig.store.outbox.list({ limit: 500 })).filter((row) => row.event === event);

  before(async () => {
    rig = await startNotifyRig();
    // A webhook nobody listens on: these tests count what was queued, not what was sent.
    channelId = (
      await rig.store.notifications.createChannel({ ownerUserId: null, type: 'webhook', name: 'ops', url: 'http://127.0.0.1:9/', secret: 's', to: null })
    ).id;
  });
  after(() => rig.close());

  const rule = async (event: any, threshold: number | null = null) => {
    await rig.store.notifications.createRule({
      ownerUserId: null,
      event,
      threshold,
      windowSeconds: null,
      channels: [channelId],
      audience: 'operator',
      enabled: true,
    });
    await rig.notifier.reloadRules();
  };

  test('a wallet draining below its threshold alerts once, however many scans see it low; a full wallet never does', async () => {
    await rule('wallet.low', 5_000_000);
    const draining = await rig.store.users.create({ name: 'drains', balanceMicros: 8_000_000 });
    await rig.store.users.create({ name: 'rich', balanceMicros: 500_000_000 });
    const sources: AccountSources = {
      users: () => [],
      keys: () => [],
      subscriptions: () => [],
      walletAvailable: async (user) => (await rig.store.users.find(user.id))!.balanceMicros,
      keyAvailable: async () => null,
      subscriptionUsage: async () => [],
    };
    const users = await rig.store.users.list();
    sources.users = () => users;
    for (let step = 0; step < 8; step += 1) {
      await rig.store.users.addBalance(draining.id, -1_000_000); // 7, 6, 5, 4 (below 5), 3, 2, 1, 0 USD
      await scanAccounts(sources, rig.notifier, rig.clock.now());
      rig.clock.advance(MINUTE);
    }
    const alerts = await sentEvents('wallet.low');
    assert.equal(alerts.length, 1);
    const body = JSON.parse(alerts[0]!.payload);
    assert.equal(body.data.account, 'drains');
    assert.equal(body.data.balanceUsd, 4);
  });

  test('a channel that trips and recovers alerts twice: down, then up; its history is recorded for the status page', async () => {
    await rule('channel.down');
    await rule('channel.up');
    const channel = {
      id: 'ch_flaky',
      name: 'flaky',
      provider: 'openai',
      baseUrl: 'http://x/v1',
      apiKeys: ['k0'],
      models: ['m'],
      groups: ['default'],
      modelMap: {},
      priority: 0,
      weight: 1,
      enabled: true,
      supportsResponses: false,
      allowedPrefixes: [],
      createdAt: 0,
      updatedAt: 0,
    } as Channel;
    const health = new ChannelHealth(rig.clock.now);
    const snapshot = { current: { channels: new Map([[channel.id, channel]]) } } as unknown as SnapshotHolder;
    notifyCircuitTransitions(health, {
      snapshot,
      notifier: rig.notifier,
      history: rig.store.circuitHistory,
      logger: pino({ level: 'silent' }),
      now: rig.clock.now,
    });
    const trippedAt = rig.clock.now();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const lease = health.acquire(channel);
      if (lease) health.recordFailure(channel, lease, { at: rig.clock.now(), status: 502, code: 'upstream_error', message: 'bad gateway' });
    }
    assert.equal(health.acquire(channel), undefined, 'the circuit is open');
    rig.clock.advance(20_000);
    const trial = health.acquire(channel);
    assert.ok(trial, 'half-open after the cooldown');
    health.recordSuccess(channel, trial, 50);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the emits are fire-and-forget
    const down = await sentEvents('channel.down');
    const up = await sentEvents('channel.up');
    assert.equal(down.length, 1);
    assert.equal(up.length, 1);
    assert.equal(JSON.parse(down[0]!.payload).data.channel, 'flaky');
    const history = await rig.store.circuitHistory.since(trippedAt - 1);
    assert.deepEqual(
      history.map((entry) => entry.state),
      ['open', 'closed'],
    );
  });

  test('a key spending ten times its usual hour alerts; a steady key does not; a second scan in the hour adds nothing', async () => {
    await rule('spend.spike');
    const now = rig.clock.now();
    const rows: UsageLogEntry[] = [];
    const row = (keyId: string, time: number, costMicros: number): UsageLogEntry => ({
      requestId: `req_${rows.length}`,
      time,
      keyId,
      keyName: keyId,
      group: 'default',
      model: 'm',
      upstreamModel: 'm',
      channelId: 'ch_1',
      channelName: 'c',
      clientProtocol: 'openai-chat',
      upstreamProtocol: 'openai-chat',
      surface: null,
      status: 200,
      errorCode: null,
      errorMessage: null,
      inputTokens: 1,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costMicros,
      latencyMs: 100,
      ttftMs: null,
      stream: false,
      warnings: [],
      attempts: [],
      clientIp: null,
      userId: null,
    });
    // A week of $1 an hour for both keys, then the last hour: steady $1, spiky $10.
    for (let hour = 1; hour <= 7 * 24; hour += 1) {
      rows.push(row('key_steady', now - HOUR - hour * HOUR + 1, 1_000_000));
      rows.push(row('key_spiky', now - HOUR - hour * HOUR + 1, 1_000_000));
    }
    rows.push(row('key_steady', now - 10 * MINUTE, 1_000_000));
    for (let index = 0; index < 10; index += 1) rows.push(row('key_spiky', now - 10 * MINUTE + index, 1_000_000));
    await rig.store.usage.insertMany(rows);
    const sources = { usage: rig.store.usage, channelName: () => undefined };
    await scanTraffic(sources, rig.notifier, now);
    rig.clock.advance(MINUTE);
    await scanTraffic(sources, rig.notifier, rig.clock.now());
    const spikes = await sentEvents('spend.spike');
    assert.deepEqual(
      spikes.map((entry) => JSON.parse(entry.payload).data.subject),
      ['key:key_spiky'],
    );
    const data = JSON.parse(spikes[0]!.payload).data;
    assert.equal(data.spentUsd, 10);
    assert.equal(data.usualUsd, 1);
  });
  test('a channel whose first bytes slow past the threshold over the window alerts once; a fast one and a thin one do not', async () => {
    await rule('channel.ttfb', 8_000);
    const now = rig.clock.now();
    const rows: UsageLogEntry[] = [];
    const row = (channelId: string, time: number, ttftMs: number | null, status = 200): UsageLogEntry => ({
      requestId: `ttfb_${rows.length}`,
      time,
      keyId: 'key_ttfb',
      keyName: 'k',
      group: 'default',
      model: 'm',
      upstreamModel: 'm',
      channelId,
      channelName: channelId,
      clientProtocol: 'openai-chat',
      upstreamProtocol: 'openai-chat',
      surface: null,
      status,
      errorCode: null,
      errorMessage: null,
      inputTokens: 1,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costMicros: 0,
      latencyMs: 30_000,
      ttftMs,
      stream: ttftMs !== null,
      warnings: [],
      attempts: [],
      clientIp: null,
      userId: null,
    });
    // In the last 5 minutes: "slow" answers 30 requests, 3 of them (10 %) after 12 s, the rest
    // after 1 s, so its p95 is past 8 s; "fast" answers 30 within 2 s plus failures that carry no
    // first byte; "thin" answers 10 after 20 s (too few to judge). Slow first bytes an hour ago do not count.
    for (let index = 0; index < 27; index += 1) rows.push(row('ch_slow', now - 4 * MINUTE + index, 1_000));
    for (let index = 0; index < 3; index += 1) rows.push(row('ch_slow', now - 3 * MINUTE + index, 12_000));
    for (let index = 0; index < 30; index += 1) rows.push(row('ch_fast', now - 4 * MINUTE + index, 2_000));
    for (let index = 0; index < 10; index += 1) rows.push(row('ch_fast', now - 4 * MINUTE + index, null, 502));
    for (let index = 0; index < 10; index += 1) rows.push(row('ch_thin', now - 2 * MINUTE + index, 20_000));
    for (let index = 0; index < 40; index += 1) rows.push(row('ch_fast', now - HOUR + index, 60_000));
    await rig.store.usage.insertMany(rows);
    const sources = { usage: rig.store.usage, channelName: (id: string) => id.replace('ch_', '') };
    await scanTraffic(sources, rig.notifier, now);
    rig.clock.advance(MINUTE);
    await scanTraffic(sources, rig.notifier, rig.clock.now());
    const slow = await sentEvents('channel.ttfb');
    assert.deepEqual(
      slow.map((entry) => JSON.parse(entry.payload).data.channel),
      ['slow'],
    );
    const data = JSON.parse(slow[0]!.payload).data;
    assert.equal(data.answered, 30);
    assert.equal(data.windowSeconds, 300);
    assert.ok(data.ttfbP95Ms >= 10_000 && data.ttfbP95Ms <= 15_000, `p95 ${data.ttfbP95Ms} ms lies in the 10–15 s bin`);
  });
});
