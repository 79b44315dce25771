import { randomUUID } from 'node:crypto';
import type { RedisConnection } from './open-redis.ts';

/**
 * A running request's progress as its instance last recorded it: an opaque text the billing
 * layer writes and reads back (what a survivor bills when this instance dies), and the kv holds
 * (`[key, holdId]`) that billing settles, so no sweeper releases them at 0 meanwhile.
 */
export interface ProgressSource {
  holds: ReadonlyArray<readonly [key: string, holdId: string]>;
  /** The record to keep now (undefined: nothing to record yet). Called once per period, never per chunk. */
  read(): string | undefined;
}

export interface ProgressHandle {
  /**
   * The request ended here: its record is removed. True when this instance still bills it;
   * false when another instance already claimed the record (it took this one for dead and billed
   * what was recorded), so this instance must not settle it again.
   */
  close(): Promise<boolean>;
}

/** Records the progress of this instance's running requests in its hold journal (see hold-journal.ts). */
export interface ProgressBook {
  track(source: ProgressSource): ProgressHandle;
}

/** Records per HSET (about 1 KB each). */
const RECORDS_PER_WRITE = 200;

/** A journal field is a hold (`["<key>","<holdId>"]`) or a request's progress (`p:<id>`); a hold a progress record covers has the record's field as its value. */
export const PROGRESS_FIELD_PREFIX = 'p:';

interface Tracked {
  field: string;
  source: ProgressSource;
  last: string | undefined;
  /** A write that included this record is in flight (awaited by close, so its answer decides). */
  writing: Promise<boolean> | undefined;
  /** A write of this record reached Redis: a missing record at close means someone claimed it. */
  landed: boolean;
}

/**
 * The records of every running request go out together, one HSET on the instance's journal
 * every period (not one command per chunk, nor per stream): a record is written only when it
 * changed, and the first write also marks the request's hold fields as covered by it, in the
 * same command, so a sweeper sees a hold either as its own or as part of a record, never
 * between. One key per command: works in a Redis Cluster.
 */
export function createProgressBook(redis: RedisConnection, journalKey: string): ProgressBook & { flush(): Promise<void> } {
  const open = new Set<Tracked>();
  return {
    track(source) {
      const tracked: Tracked = { field: `${PROGRESS_FIELD_PREFIX}${randomUUID()}`, source, last: undefined, writing: undefined, landed: false };
      open.add(tracked);
      return {
        async close() {
          open.delete(tracked);
          if (tracked.writing === undefined && !tracked.landed) return true;
          if (tracked.writing !== undefined) await tracked.writing;
          try {
            const removed = await redis.hdel(journalKey, tracked.field);
            // Never landed (the writes failed): nothing anyone could have claimed; this instance bills.
            return removed === 1 || !tracked.landed;
          } catch {
            // Redis is unreachable here: a survivor could not have claimed it unless it saw it; bill.
            return true;
          }
        },
      };
    },
    async flush() {
      let fields: Record<string, string> = {};
      let batch: Tracked[] = [];
      const writes: Promise<void>[] = [];
      for (const tracked of open) {
        const record = tracked.source.read();
        if (record === undefined || record === tracked.last) continue;
        if (tracked.last === undefined) for (const [key, holdId] of tracked.source.holds) fields[holdField(key, holdId)] = tracked.field;
        fields[tracked.field] = record;
        tracked.last = record;
        batch.push(tracked);
        // Bounded commands: thousands of streams never make one multi-megabyte HSET that stalls Redis.
        if (batch.length === RECORDS_PER_WRITE) {
          writes.push(write(fields, batch));
          fields = {};
          batch = [];
        }
      }
      if (batch.length > 0) writes.push(write(fields, batch));
      await Promise.all(writes);
    },
  };

  async function write(fields: Record<string, string>, batch: Tracked[]): Promise<void> {
    const writing = redis.hset(journalKey, fields).then(
      () => true,
      () => false,
    );
    for (const tracked of batch) tracked.writing = writing;
    const landed = await writing;
    for (const tracked of batch) {
      if (landed) tracked.landed = true;
      // A failed write is written again next period (the record counts as changed).
      else tracked.last = undefined;
      if (tracked.writing === writing) tracked.writing = undefined;
    }
  }
}

/** The journal field of one hold. */
export function holdField(key: string, holdId: string): string {
  return JSON.stringify([key, holdId]);
}
