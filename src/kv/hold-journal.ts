import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { HOLD_RECORD_TTL_MS, type Kv } from './kv.ts';
import type { RedisConnection } from './open-redis.ts';

/** An instance silent this long is dead: its open holds are released by the others. */
const ALIVE_TTL_MS = 10_000;
/** Heartbeat and sweep period; with the TTL, a dead instance's holds are released within 12 s. */
const PERIOD_MS = 2_000;

export interface HoldJournal {
  /** `kv` with every hold it makes recorded under this instance until it is settled. */
  kv: Kv;
  /** Releases what dead instances left; returns how many holds were released (one pass). */
  sweep(): Promise<number>;
  close(): void;
}

/**
 * Holds a dead instance can no longer settle (SIGKILL, OOM, a lost machine) would stay reserved
 * on the shared accounts for good. Each instance therefore records its open holds in Redis
 * (`<prefix>holds:<instance>`: one field per key and hold id) and renews `<prefix>alive:<instance>`;
 * every instance sweeps the journals of instances whose heartbeat expired, claiming each entry
 * with HDEL (so one sweeper releases it) and releasing it by id (`settle` to 0: the reservation
 * returns to the account, nothing is charged). Every command names one key, so it runs in a
 * Cluster too. An instance stalled longer than the TTL is taken for dead: its later settle then
 * finds the hold released and changes nothing in the kv (its charge still reaches the database).
 */
export function startHoldJournal(input: { kv: Kv; redis: RedisConnection; prefix: string; logger: Logger }): HoldJournal {
  const { kv, redis, prefix, logger } = input;
  const instance = randomBytes(8).toString('hex');
  const journal = (id: string) => `${prefix}holds:${id}`;
  const alive = (id: string) => `${prefix}alive:${id}`;
  const members = `${prefix}instances`;
  const field = (key: string, holdId: string) => JSON.stringify([key, holdId]);
  const quietly = (work: Promise<unknown>) => work.catch(() => undefined);

  // The journal lives as long as a hold's own record, so entries a bug never settled cannot pile up.
  const beat = () =>
    quietly(
      Promise.all([redis.set(alive(instance), '1', 'PX', ALIVE_TTL_MS), redis.sadd(members, instance), redis.pexpire(journal(instance), HOLD_RECORD_TTL_MS)]),
    );
  const sweep = async (): Promise<number> => {
    let released = 0;
    for (const other of await redis.smembers(members)) {
      if (other === instance || (await redis.exists(alive(other))) === 1) continue;
      for (const entry of await redis.hkeys(journal(other))) {
        // HDEL answers 1 to one sweeper only: each hold is released once.
        if ((await redis.hdel(journal(other), entry)) !== 1) continue;
        const [key, holdId] = JSON.parse(entry) as [string, string];
        await kv.settle(key, holdId, 0);
        released += 1;
      }
      if ((await redis.hlen(journal(other))) === 0) await redis.srem(members, other);
    }
    if (released > 0) logger.warn({ released }, 'released the holds of an instance that stopped without settling them');
    return released;
  };
  void beat();
  const timer = setInterval(() => {
    void beat();
    void quietly(sweep());
  }, PERIOD_MS);
  timer.unref();

  const journaled: Kv = {
    get: (key) => kv.get(key),
    setIfAbsent: (key, value, ttlMs) => kv.setIfAbsent(key, value, ttlMs),
    adjust: (key, delta, options) => kv.adjust(key, delta, options),
    delete: (key) => kv.delete(key),
    seedAccount: (key, value, options) => kv.seedAccount(key, value, options),
    async hold(key, holdId, delta, options) {
      // Recorded alongside the hold (no extra wait), removed again when the hold is refused.
      const [result] = await Promise.all([kv.hold(key, holdId, delta, options), quietly(redis.hset(journal(instance), field(key, holdId), Date.now()))]);
      if (!result.applied) void quietly(redis.hdel(journal(instance), field(key, holdId)));
      return result;
    },
    async settle(key, holdId, finalDelta) {
      await kv.settle(key, holdId, finalDelta);
      void quietly(redis.hdel(journal(instance), field(key, holdId)));
    },
    fund: (key, funding) => kv.fund(key, funding),
    acquireLease: (key, holder, options) => kv.acquireLease(key, holder, options),
    releaseLease: (key, holder) => kv.releaseLease(key, holder),
    getTexts: (keys) => kv.getTexts(keys),
    setTexts: (keys, value, ttlMs) => kv.setTexts(keys, value, ttlMs),
    close: () => kv.close(),
  };
  return { kv: journaled, sweep, close: () => clearInterval(timer) };
}
