import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { startOutboxDispatcher } from '../../src/notify/outbox-dispatcher.ts';
import { startReceiver, type Receiver } from '../notify/notify-fixture.ts';
import { startScaleHarness, type ScaleHarness } from './scale-harness.ts';

describe('notifications on two instances sharing PostgreSQL and Redis', () => {
  let harness: ScaleHarness;
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
    harness = await startScaleHarness({ overrides: { notifications: { outboxPollMs: 0, scanIntervalMs: 0 } } });
    const channel = await harness.admin(0, 'POST', '/notification-channels', {
      type: 'webhook',
      name: 'ops',
      url: `${receiver.url}/hook`,
      secret: 'whsec_two',
    });
    for (const event of ['order.paid', 'channel.down']) await harness.admin(0, 'POST', '/notification-rules', { event, channels: [channel.id] });
    for (const instance of harness.instances) await instance.notifications.notifier.reloadRules();
  });
  after(async () => {
    await harness.close();
    await receiver.close();
  });

  test('the same events raised on both instances at once are queued once and sent once, even with two senders racing', async () => {
    const raise = (index: number, event: 'order.paid' | 'channel.down', subject: string) =>
      harness.instances[index]!.notifications.notifier.emitNotification(event, { subject });
    const raised: Promise<void>[] = [];
    for (let round = 0; round < 10; round += 1) {
      for (const index of [0, 1]) {
        raised.push(raise(index, 'order.paid', 'ord_shared'), raise(index, 'channel.down', 'ch_1:*'), raise(index, 'order.paid', `ord_${round}`));
      }
    }
    await Promise.all(raised);
    const queued = await harness.query<{ event: string }>('select event from notification_outbox');
    // ord_shared, ch_1, and ord_0 … ord_9 once each.
    assert.equal(queued.length, 12, JSON.stringify(queued));

    // The leader's dispatcher, and a second sender on the other instance's store that thinks it leads too (a hand-over).
    const leader = harness.instances.find((instance) => instance.cluster.leader());
    assert.ok(leader, 'one instance leads');
    const other = harness.instances.find((instance) => instance !== leader)!;
    const rogue = startOutboxDispatcher({
      store: other.store,
      send: other.notifications.send,
      now: Date.now,
      logger: pino({ level: 'silent' }),
      isLeader: () => true,
      intervalMs: 0,
    });
    const sent = await Promise.all([leader.notifications.dispatcher.runOnce(), rogue.runOnce(), other.notifications.dispatcher.runOnce()]);
    await rogue.stop();
    assert.equal(
      sent.reduce((sum, count) => sum + count, 0),
      12,
    );
    const ids = receiver.received.map((entry) => JSON.parse(entry.body).id as string);
    assert.equal(ids.length, 12);
    assert.equal(new Set(ids).size, 12, 'no message reached the receiver twice');
    const statuses = await harness.query<{ status: string }>('select status from notification_outbox');
    assert.ok(statuses.every((row) => row.status === 'sent'));
  });
});
