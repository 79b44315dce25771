import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Redis } from 'ioredis';
import pino from 'pino';
import { billDeadStreams } from '../../src/billing/bill-dead-streams.ts';
import type { ChargeWriter } from '../../src/billing/charge-writer.ts';
import type { SettlementPlan } from '../../src/billing/settlement-plan.ts';
import { BILLED_FROM_PROGRESS_WARNING, INSTANCE_LOST_CODE, serializeProgress } from '../../src/billing/stream-progress-record.ts';
import { WalletMeter } from '../../src/billing/wallet-meter.ts';
import type { UsageLogEntry } from '../../src/domain/usage-log-entry.ts';
import type { User } from '../../src/domain/user.ts';
import { createRedisKv } from '../../src/kv/create-redis-kv.ts';
import { startHoldJournal } from '../../src/kv/hold-journal.ts';
import { deleteKeys, redisTestUrl, uniquePrefix } from '../scale/redis-test-support.ts';

const logger = pino({ level: 'silent' });
const USER = { id: 'u1', name: 'streams', balanceMicros: 1_000, spentMicros: 0, updatedAt: 1 } as User;

/** A charge writer that only remembers what it was given (the survivors' writers). */
function chargeLog(): { charges: Array<[string, number]>; writer: ChargeWriter } {
  const charges: Array<[string, number]> = [];
  const writer = { record: (id: string, amount: number) => void charges.push([id, amount]), pending: () => 0 } as unknown as ChargeWriter;
  return { charges, writer };
}

function row(requestId: string, costMicros: number): UsageLogEntry {
  return {
    requestId,
    time: 1,
    keyId: 'k1',
    keyName: 'key',
    group: 'default',
    model: 'm',
    upstreamModel: 'm',
    channelId: 'c1',
    channelName: 'sim',
    clientProtocol: 'openai-chat',
    upstreamProtocol: 'openai-chat',
    surface: null,
    status: 200,
    errorCode: null,
    errorMessage: null,
    inputTokens: 10,
    outputTokens: costMicros,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costMicros,
    latencyMs: 0,
    ttftMs: 5,
    stream: true,
    warnings: ['estimated:usage'],
    attempts: [],
    clientIp: null,
    userId: 'u1',
    paidBy: 'wallet',
    subscriptionId: null,
  };
}

test("a dead instance's streams: recorded progress billed once (two sweepers racing), none recorded released at 0, settled ones untouched", async () => {
  const redis = new Redis(redisTestUrl());
  const prefix = uniquePrefix('dead-streams');
  after(async () => {
    await deleteKeys(redisTestUrl(), prefix);
    redis.disconnect();
  });
  const kv = createRedisKv(redis, { prefix });
  const [doomed, first, second] = [1, 2, 3].map(() => startHoldJournal({ kv, redis, prefix, logger }));
  const survivors = [first, second].map((journal) => {
    const wallet = chargeLog();
    const rows: UsageLogEntry[] = [];
    journal!.billProgress(
      billDeadStreams({
        kv: journal!.kv,
        writers: { key: chargeLog().writer, wallet: wallet.writer, subscription: chargeLog().writer },
        usageWriter: { record: (entry) => void rows.push(entry) },
        logger,
      }),
    );
    return { wallet, rows };
  });
  try {
    const meter = new WalletMeter({ kv: doomed!.kv, charges: chargeLog().writer, readUser: async () => USER });
    const hold = async () => meter.hold(USER, 300, 'm');
    const track = (plan: SettlementPlan, record: string | undefined) =>
      doomed!.progress.track({ holds: plan.holds.map(([key, id]) => [key, id] as const), read: () => record });

    // A: delivering, its progress recorded (120 micro-USD so far). B: no progress yet. C: ends normally (80).
    const [a, b, c] = [await hold(), await hold(), await hold()];
    const streamA = track(a.plan, serializeProgress(row('req-a', 120), a.plan));
    track(b.plan, undefined);
    const streamC = track(c.plan, serializeProgress(row('req-c', 50), c.plan));
    await doomed!.flushProgress();
    assert.equal(await kv.get('wallet:u1'), 100, 'three holds of 300 on 1000');
    assert.equal(await streamC.close(), true, 'C ends here: this instance bills it');
    await c.settle(80);

    // The instance dies (heartbeat stops and expires); both survivors sweep at once.
    doomed!.close();
    assert.deepEqual(await first!.sweep(), { billed: 0, released: 0 }, 'alive: nothing is touched');
    for (const key of await redis.keys(`${prefix}alive:*`)) await redis.del(key);
    const counts = await Promise.all([first!.sweep(), second!.sweep()]);
    assert.equal(
      counts.reduce((sum, count) => sum + count.billed, 0),
      1,
      'the recorded stream is billed by one sweeper',
    );
    assert.equal(
      counts.reduce((sum, count) => sum + count.released, 0),
      1,
      'the stream without progress is released by one sweeper',
    );

    assert.equal(await kv.get('wallet:u1'), 1_000 - 120 - 80, 'A settled at its recorded cost, B released, C as it settled');
    const charges = survivors.flatMap((survivor) => survivor.wallet.charges);
    assert.deepEqual(charges, [['u1', 120]], 'one wallet charge, of the recorded cost');
    const rows = survivors.flatMap((survivor) => survivor.rows);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.requestId, 'req-a');
    assert.equal(rows[0]?.costMicros, 120);
    assert.equal(rows[0]?.errorCode, INSTANCE_LOST_CODE);
    assert.ok(rows[0]?.warnings.includes(BILLED_FROM_PROGRESS_WARNING));
    assert.deepEqual(await redis.keys(`${prefix}holds:*`), [], 'the journal is empty');
    assert.deepEqual(await Promise.all([first!.sweep(), second!.sweep()]), [
      { billed: 0, released: 0 },
      { billed: 0, released: 0 },
    ]);

    // Had the instance only stalled, its own end of A learns the record was claimed: it bills nothing again.
    assert.equal(await streamA.close(), false);
  } finally {
    for (const journal of [doomed, first, second]) journal!.close();
  }
});

test('an unreadable progress record: its holds are released at 0, nothing is charged', async () => {
  const redis = new Redis(redisTestUrl());
  const prefix = uniquePrefix('dead-streams-bad');
  after(async () => {
    await deleteKeys(redisTestUrl(), prefix);
    redis.disconnect();
  });
  const kv = createRedisKv(redis, { prefix });
  const [doomed, survivor] = [1, 2].map(() => startHoldJournal({ kv, redis, prefix, logger }));
  const wallet = chargeLog();
  survivor!.billProgress(
    billDeadStreams({ kv, writers: { key: wallet.writer, wallet: wallet.writer, subscription: wallet.writer }, usageWriter: { record: () => {} }, logger }),
  );
  try {
    const meter = new WalletMeter({ kv: doomed!.kv, charges: chargeLog().writer, readUser: async () => USER });
    const held = await meter.hold(USER, 300, 'm');
    doomed!.progress.track({ holds: held.plan.holds.map(([key, id]) => [key, id] as const), read: () => '{"v":1,"row":{"costMicros":-5}}' });
    await doomed!.flushProgress();
    doomed!.close();
    for (const key of await redis.keys(`${prefix}alive:*`)) await redis.del(key);
    await survivor!.sweep();
    assert.equal(await kv.get('wallet:u1'), 1_000);
    assert.deepEqual(wallet.charges, []);
  } finally {
    for (const journal of [doomed, survivor]) journal!.close();
  }
});
