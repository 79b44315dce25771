import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { ChargeWriter } from '../../src/billing/charge-writer.ts';
import { WalletMeter, type WalletHold } from '../../src/billing/wallet-meter.ts';
import { createFailoverKv, type FailoverKv } from '../../src/kv/create-failover-kv.ts';
import { createRedisKv } from '../../src/kv/create-redis-kv.ts';
import { openRedis } from '../../src/kv/open-redis.ts';
import type { User } from '../../src/domain/user.ts';
import { createRedisProcess, type RedisProcess } from './redis-process.ts';

/**
 * Issue 23, item 11: a real Redis stall (SIGSTOP of a redis-server of the test's own; the
 * connection stays up, nothing is answered, the queued commands run on SIGCONT). Holds whose
 * command timed out were refused and never released, and Redis ran them on resume: the wallet
 * in Redis was debited for requests nobody served. Afterwards the kv and the database ledger
 * (the funding minus every settled charge) must agree to the micro-unit.
 */
const FUNDED = 1_000_000;
const AMOUNT = 10_000;
const COST = 4_000;

describe('a Redis stall: the kv and the database ledger agree afterwards', () => {
  let server: RedisProcess;
  before(async () => {
    server = await createRedisProcess({ persistent: false });
    await server.start();
  });
  after(() => server.dispose());

  const setUp = async (label: string) => {
    const redis = openRedis(server.url, { name: `stall-${label}` });
    redis.on('error', () => {});
    await new Promise<void>((resolve) => (redis.status === 'ready' ? resolve() : redis.once('ready', () => resolve())));
    const prefix = `stall:${label}:`;
    const kv: FailoverKv = createFailoverKv({
      redis,
      primary: createRedisKv(redis, { prefix }),
      prefix,
      logger: pino({ level: 'silent' }),
      now: Date.now,
      replayPrefixes: ['balance:', 'spend:', 'wallet:', 'subq:'],
      probeIntervalMs: 100,
    });
    await kv.settled();
    const ledger: number[] = [];
    const charges = new ChargeWriter(
      { applyCharges: async (rows) => void ledger.push(...rows.map((row) => row.amountMicros)) },
      pino({ level: 'silent' }),
      60_000,
    );
    const user: User = {
      id: `usr_${label}`,
      name: label,
      email: null,
      passwordHash: null,
      balanceMicros: FUNDED,
      spentMicros: 0,
      enabled: true,
      createdAt: 1,
      updatedAt: 1,
    };
    // The database never sees a charge before the end (flush interval of a minute): the seed is the funding.
    const wallets = new WalletMeter({ kv, charges, readUser: async () => user });
    const observer = openRedis(server.url, { name: `stall-observer-${label}` });
    observer.on('error', () => {});
    const inRedis = async () => Number(await observer.get(`${prefix}wallet:${user.id}`));
    const charged = async () => {
      await charges.flush();
      return ledger.reduce((sum, amount) => sum + amount, 0);
    };
    const close = async () => {
      await charges.close();
      await kv.close();
      redis.disconnect();
      observer.disconnect();
    };
    return { kv, wallets, user, inRedis, charged, close };
  };

  const holdMany = (wallets: WalletMeter, user: User, count: number) =>
    Promise.allSettled(Array.from({ length: count }, () => wallets.hold(user, AMOUNT, 'm')));

  const settleServed = async (results: Array<PromiseSettledResult<WalletHold>>) => {
    const served = results.filter((result): result is PromiseFulfilledResult<WalletHold> => result.status === 'fulfilled');
    await Promise.all(served.map((result) => result.value.settle(COST)));
    return served.length;
  };

  const waitFor = async (what: string, check: () => Promise<boolean>) => {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  test('a 3 s stall (under the fallback limit): timed-out holds are released by id when Redis answers, never debited', async () => {
    const { kv, wallets, user, inRedis, charged, close } = await setUp('short');
    try {
      const before = await holdMany(wallets, user, 5);
      assert.equal(
        before.every((result) => result.status === 'fulfilled'),
        true,
      );
      server.signal('SIGSTOP');
      const stalledAt = Date.now();
      // Refused while Redis answers nothing (their commands are queued in the stopped server).
      const during = await holdMany(wallets, user, 10);
      assert.equal(during.filter((result) => result.status === 'rejected').length, 10, 'every hold in the stall is refused as retryable');
      // The requests held before the stall finish during it.
      const settling = settleServed(before);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 3_000 - (Date.now() - stalledAt))));
      server.signal('SIGCONT');
      await settling;
      assert.equal(kv.shared, true, 'a stall under the limit never falls back');
      const afterwards = await holdMany(wallets, user, 5);
      const servedAfter = await settleServed(afterwards);
      assert.equal(servedAfter, 5);
      const expected = FUNDED - (await charged());
      await waitFor('the kv to agree with the ledger', async () => (await inRedis()) === expected);
      assert.equal(await inRedis(), expected);
      assert.equal(await charged(), 10 * COST, 'ten requests served, each charged once');
      console.log(`[figures redis stall 3 s] kv ${await inRedis()} = ledger ${expected} (funded ${FUNDED}, 10 holds refused in the stall)`);
    } finally {
      server.signal('SIGCONT');
      await close();
    }
  });

  test('a 9 s stall (past the fallback limit): served locally meanwhile, replayed once, timed-out holds released: kv = ledger', async () => {
    const { kv, wallets, user, inRedis, charged, close } = await setUp('long');
    try {
      const before = await holdMany(wallets, user, 5);
      assert.equal(
        before.every((result) => result.status === 'fulfilled'),
        true,
      );
      server.signal('SIGSTOP');
      const stalledAt = Date.now();
      // Keep asking while stalled: refused until 5 s without an answer, then served from the fallback.
      let servedDuring = 0;
      let refusedDuring = 0;
      while (Date.now() - stalledAt < 9_000) {
        const results = await holdMany(wallets, user, 3);
        refusedDuring += results.filter((result) => result.status === 'rejected').length;
        servedDuring += await settleServed(results);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.equal(kv.shared, false, 'nine seconds without an answer fall back');
      assert.ok(servedDuring > 0, 'the fallback served');
      assert.ok(refusedDuring > 0, 'the first seconds were refused');
      // Holds made before the stall settle while fallen back; two more are made on the fallback
      // and settle only after Redis is back (they are put on Redis when it resumes).
      await settleServed(before);
      const open = await holdMany(wallets, user, 2);
      assert.equal(
        open.every((result) => result.status === 'fulfilled'),
        true,
      );
      server.signal('SIGCONT');
      await waitFor('the kv to resume', async () => {
        await kv.settled();
        return kv.shared;
      });
      assert.equal(await settleServed(open), 2);
      const afterwards = await settleServed(await holdMany(wallets, user, 5));
      assert.equal(afterwards, 5);
      const expected = FUNDED - (await charged());
      await waitFor('the kv to agree with the ledger', async () => (await inRedis()) === expected);
      assert.equal(await charged(), (5 + servedDuring + 2 + 5) * COST);
      console.log(
        `[figures redis stall 9 s] kv ${await inRedis()} = ledger ${expected} (funded ${FUNDED}; ${refusedDuring} refused, ${servedDuring} served from the fallback)`,
      );
    } finally {
      server.signal('SIGCONT');
      await close();
    }
  });
});
