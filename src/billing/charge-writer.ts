import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../store/is-database-unavailable.ts';
import { MAX_CHARGE_MICROS } from '../domain/money.ts';

/** A charge that could not be written on its own while others could: kept for the operator, never retried forever. */
export interface RejectedCharge {
  keyId: string;
  amountMicros: number;
  reason: string;
  at: number;
}

/** At most this many rejected charges are kept in memory for inspection. */
const MAX_REJECTED = 1_000;

/** Charges written together, under one id: a retry reuses the id, so it can never apply twice. */
interface ChargeBatch {
  id: string;
  rows: Array<{ keyId: string; amountMicros: number }>;
}

/**
 * Persists settled charges off the hot path, like the usage writer: `record` only adds to a
 * per-key total; a timer applies the totals in one transaction. `pending(keyId)` is what is
 * charged but not yet in the database, so a balance re-read from the store can be corrected.
 *
 * Every batch carries an id the store records in the same transaction. When the connection
 * drops after PostgreSQL committed but before it said so, the writer sees a failure and
 * retries the batch under the same id, and the store skips it: exactly once, not twice.
 * While a batch waits to be retried (the database is down), new charges keep adding up per
 * key instead of becoming more batches, so an outage leaves a handful of retries, not one
 * per tick.
 *
 * No single row may block the batch: an amount that is not a safe integer is refused at
 * `record` (logged, kept in `rejected`); when the batch transaction fails, each key's total
 * is written on its own (under an id of its own), so the rows that can be written are, a
 * row that fails alone while others succeed is set aside (logged with its amount, kept in
 * `rejected`), and only when every row fails (the database is down) is everything kept for
 * the next flush.
 */
export class ChargeWriter {
  #queued = new Map<string, number>();
  /** Batches that failed and must be retried under their own ids, oldest first. */
  #retry: ChargeBatch[] = [];
  #inFlight: ChargeBatch[] = [];
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout;
  readonly rejected: RejectedCharge[] = [];

  constructor(
    private readonly keys: { applyCharges(rows: ChargeBatch['rows'], batchId: string): Promise<void> },
    private readonly logger: Logger,
    flushIntervalMs = 250,
    private readonly newBatchId: () => string = randomUUID,
  ) {
    this.#timer = setInterval(() => void this.flush(), flushIntervalMs);
    this.#timer.unref();
  }

  record(keyId: string, amountMicros: number): void {
    if (amountMicros === 0) return;
    if (!Number.isSafeInteger(amountMicros) || Math.abs(amountMicros) > MAX_CHARGE_MICROS) {
      this.#reject(keyId, amountMicros, 'not a bounded integer number of micro-USD');
      return;
    }
    this.#queued.set(keyId, (this.#queued.get(keyId) ?? 0) + amountMicros);
  }

  /**
   * Charged but not known to be in the database. A retried batch whose lost commit did land
   * counts until its retry confirms it: the error is on the side of a lower balance.
   */
  pending(keyId: string): number {
    let total = this.#queued.get(keyId) ?? 0;
    for (const batch of this.#inFlight) total += amountFor(batch, keyId);
    for (const batch of this.#retry) total += amountFor(batch, keyId);
    return total;
  }

  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#queued.size === 0 && this.#retry.length === 0) return;
    const batches = this.#retry;
    this.#retry = [];
    if (batches.length === 0) {
      batches.push({ id: this.newBatchId(), rows: [...this.#queued].map(([keyId, amountMicros]) => ({ keyId, amountMicros })) });
      this.#queued = new Map();
    }
    this.#inFlight = batches;
    this.#flushing = this.#writeInOrder(batches).finally(() => {
      this.#inFlight = [];
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  async #writeInOrder(batches: ChargeBatch[]): Promise<void> {
    for (const [index, batch] of batches.entries()) {
      const failed = await this.#write(batch);
      if (failed.length > 0) {
        // The database is at fault: keep this batch and the ones behind it for the next flush.
        this.#retry.push(...failed, ...batches.slice(index + 1));
        return;
      }
    }
  }

  /** Writes one batch; returns what must be retried (nothing when it, or all it could, was written). */
  async #write(batch: ChargeBatch): Promise<ChargeBatch[]> {
    try {
      await this.keys.applyCharges(batch.rows, batch.id);
      return [];
    } catch (error) {
      if (batch.rows.length === 1 || isDatabaseUnavailable(error)) {
        this.logger.error({ err: error, keys: batch.rows.length }, 'balance write failed; will retry');
        return [batch];
      }
      this.logger.warn({ err: error, keys: batch.rows.length }, 'balance batch failed; writing each key on its own');
    }
    // The batch transaction was refused (so rolled back): each row now goes alone, under an id of its own.
    const alone = batch.rows.map((row) => ({ id: `${batch.id}/${row.keyId}`, rows: [row] }));
    const failed: Array<{ batch: ChargeBatch; error: unknown }> = [];
    for (const single of alone) {
      try {
        await this.keys.applyCharges(single.rows, single.id);
      } catch (error) {
        failed.push({ batch: single, error });
      }
    }
    if (failed.length === alone.length) {
      // Nothing could be written: the database, not the rows. Keep everything for the next flush.
      this.logger.error({ err: failed[0]?.error, keys: alone.length }, 'balance write failed; will retry');
      return alone;
    }
    for (const { batch: single, error } of failed) {
      const row = single.rows[0] as ChargeBatch['rows'][number];
      this.#reject(row.keyId, row.amountMicros, errorText(error));
    }
    return [];
  }

  #reject(keyId: string, amountMicros: number, reason: string): void {
    this.logger.error({ keyId, amountMicros: String(amountMicros), reason }, 'charge set aside: it cannot be written; the rest of the batch continues');
    this.rejected.push({ keyId, amountMicros, reason, at: Date.now() });
    if (this.rejected.length > MAX_REJECTED) this.rejected.shift();
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}

function amountFor(batch: ChargeBatch, keyId: string): number {
  let total = 0;
  for (const row of batch.rows) if (row.keyId === keyId) total += row.amountMicros;
  return total;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
