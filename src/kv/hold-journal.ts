import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { HOLD_RECORD_TTL_MS, type Kv } from './kv.ts';
import type { RedisConnection } from './open-redis.ts';
import { createProgressBook, holdField, PROGRESS_FIELD_PREFIX, type ProgressBook } from './progress-book.ts';

/** An instance silent this long is dead: its open holds are released by the others. */
const ALIVE_TTL_MS = 10_000;
/** Heartbeat and sweep period; with the TTL, a dead instance's holds are released within 12 s. */
const PERIOD_MS = 2_000;

export interface HoldJournal {
  /** `kv` with every hold it makes recorded under this instance until it is settled. */
  kv: Kv;
  /** Running requests' progress, recorded beside their holds (progress-book.ts). */
  progress: ProgressBook;
  /** Writes the progress that changed now rather than at the next period (tests; the timer does it every 2 s). */
  flushProgress(): Promise<void>;
  /**
   * Who bills a dead instance's recorded progress (the billing layer, set once at start-up): it
   * settles the record's holds to the recorded cost and writes its usage row. Without one, the
   * holds a record covers are released at 0 like any other.
   */
  billProgress(biller: (record: string) => Promise<void>): void;
  /** Bills and releases what dead instances left (one pass): how many records were billed and holds released. */
  sweep(): Promise<{ billed: number; released: number }>;
  close(): void;
}

/** Claims a progress record and the holds it covers, in one step: one sweeper wins, and no other releases those holds at 0. */
const CLAIM_RECORD = `if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
for i = 2, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
return 1`;
/** Claims a hold unless a progress record still covers it (that record's claimer settles it). */
const CLAIM_HOLD = `local covered = redis.call('HGET', KEYS[1], ARGV[1])
if not covered then return 0 end
if string.sub(covered, 1, ${PROGRESS_FIELD_PREFIX.length}) == '${PROGRESS_FIELD_PREFIX}' and redis.call('HEXISTS', KEYS[1], covered) == 1 then return 0 end
return redis.call('HDEL', KEYS[1], ARGV[1])`;

/**
 * Holds a dead instance can no longer settle (SIGKILL, OOM, a lost machine) would stay reserved
 * on the shared accounts for good. Each instance therefore records its open holds in Redis
 * (`<prefix>holds:<instance>`: one field per key and hold id) and renews `<prefix>alive:<instance>`;
 * every instance sweeps the journals of instances whose heartbeat expired, claiming each entry
 * with HDEL (so one sweeper releases it) and releasing it by id (`settle` to 0: the reservation
 * returns to the account, nothing is charged). A streaming request also keeps its progress in
 * the journal (progress-book.ts): a sweeper claims that record with the holds it covers in one
 * Lua step on the one key, and bills it (`billProgress`) instead of releasing those holds at 0.
 * Every command names one key, so it runs in a Cluster too. An instance stalled longer than the
 * TTL is taken for dead: its later settle finds a released hold and changes nothing in the kv
 * (its charge still reaches the database), and a request whose record was claimed is not billed
 * by it again (ProgressHandle.close answers false).
 */
export function startHoldJournal(input: { kv: Kv; redis: RedisConnection; prefix: string; logger: Logger }): HoldJournal {
  const { kv, redis, prefix, logger } = input;
  const instance = randomBytes(8).toString('hex');
  const journal = (id: string) => `${prefix}holds:${id}`;
  const alive = (id: string) => `${prefix}alive:${id}`;
  const members = `${prefix}instances`;
  const field = holdField;
  const quietly = (work: Promise<unknown>) => work.catch(() => undefined);

  // The journal lives as long as a hold's own record, so entries a bug never settled cannot pile up.
  const beat = () =>
    quietly(
      Promise.all([redis.set(alive(instance), '1', 'PX', ALIVE_TTL_MS), redis.sadd(members, instance), redis.pexpire(journal(instance), HOLD_RECORD_TTL_MS)]),
    );
  const progress = createProgressBook(redis, journal(instance));
  let biller: ((record: string) => Promise<void>) | undefined;
  const releaseAll = (fields: readonly string[]) =>
    Promise.all(
      fields.map((entry) => {
        const [key, holdId] = JSON.parse(entry) as [string, string];
        return kv.settle(key, holdId, 0);
      }),
    );
  const billRecord = async (record: string, covered: readonly string[]) => {
    if (biller === undefined) return void (await releaseAll(covered));
    try {
      await biller(record);
    } catch (error) {
      logger.error({ err: error }, "could not bill a dead instance's stream from its recorded progress; its holds are released at 0");
      await releaseAll(covered);
    }
  };
  const sweepOne = async (other: string, counts: { billed: number; released: number }) => {
    const entries = await redis.hgetall(journal(other));
    const coveredBy = new Map<string, string[]>();
    for (const [entry, value] of Object.entries(entries))
      if (value.startsWith(PROGRESS_FIELD_PREFIX)) coveredBy.set(value, [...(coveredBy.get(value) ?? []), entry]);
    // Recorded progress first: claimed with its holds (one sweeper wins), billed at what was recorded.
    for (const [entry, record] of Object.entries(entries)) {
      if (!entry.startsWith(PROGRESS_FIELD_PREFIX)) continue;
      const covered = coveredBy.get(entry) ?? [];
      if ((await redis.eval(CLAIM_RECORD, 1, journal(other), entry, ...covered)) !== 1) continue;
      await billRecord(record, covered);
      counts.billed += 1;
    }
    // Then every hold no record covers, released at 0: a claim answers 1 to one sweeper only.
    for (const entry of Object.keys(entries)) {
      if (entry.startsWith(PROGRESS_FIELD_PREFIX) || (await redis.eval(CLAIM_HOLD, 1, journal(other), entry)) !== 1) continue;
      await releaseAll([entry]);
      counts.released += 1;
    }
    if ((await redis.hlen(journal(other))) === 0) await redis.srem(members, other);
  };
  const sweep = async () => {
    const counts = { billed: 0, released: 0 };
    for (const other of await redis.smembers(members)) {
      if (other === instance || (await redis.exists(alive(other))) === 1) continue;
      await sweepOne(other, counts);
    }
    if (counts.billed + counts.released > 0) logger.warn(counts, 'billed and released what an instance that stopped left open');
    return counts;
  };
  void beat();
  const timer = setInterval(() => {
    void beat();
    void quietly(progress.flush());
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
  return {
    kv: journaled,
    progress,
    flushProgress: () => progress.flush(),
    billProgress: (bill) => {
      biller = bill;
    },
    sweep,
    close: () => clearInterval(timer),
  };
}
