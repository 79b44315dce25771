import type { Logger } from 'pino';
import type { ApiKeyRepository } from '../store/store.ts';
import { isDatabaseUnavailable } from '../store/is-database-unavailable.ts';
import { MAX_CHARGE_MICROS } from './money-bounds.ts';

/** A charge that could not be written on its own while others could: kept for the operator, never retried forever. */
export interface RejectedCharge {
  keyId: string;
  amountMicros: number;
  reason: string;
  at: number;
}

/** At most this many rejected charges are kept in memory for inspection. */
const MAX_REJECTED = 1_000;

/**
 * Persists settled charges off the hot path, like the usage writer: `record` only adds to a
 * per-key total; a timer applies the totals in one transaction. `pending(keyId)` is what is
 * charged but not yet in the database, so a balance re-read from the store can be corrected.
 *
 * No single row may block the batch: an amount that is not a safe integer is refused at
 * `record` (logged, kept in `rejected`); when the batch transaction fails, each key's total
 * is written on its own, so the rows that can be written are, a row that fails alone while
 * others succeed is set aside (logged with its amount, kept in `rejected`), and only when
 * every row fails (the database is down) is the whole batch kept for the next flush.
 */
export class ChargeWriter {
  #queued = new Map<string, number>();
  #inFlight = new Map<string, number>();
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout;
  readonly rejected: RejectedCharge[] = [];

  constructor(
    private readonly keys: Pick<ApiKeyRepository, 'applyCharges'>,
    private readonly logger: Logger,
    flushIntervalMs = 250,
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

  pending(keyId: string): number {
    return (this.#queued.get(keyId) ?? 0) + (this.#inFlight.get(keyId) ?? 0);
  }

  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#queued.size === 0) return;
    const batch = this.#queued;
    this.#queued = new Map();
    this.#inFlight = batch;
    this.#flushing = this.#write(batch).finally(() => {
      this.#inFlight = new Map();
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  async #write(batch: Map<string, number>): Promise<void> {
    const rows = [...batch].map(([keyId, amountMicros]) => ({ keyId, amountMicros }));
    try {
      await this.keys.applyCharges(rows);
      return;
    } catch (error) {
      if (rows.length === 1 || isDatabaseUnavailable(error)) {
        this.logger.error({ err: error, keys: rows.length }, 'balance write failed; will retry');
        this.#requeue(rows);
        return;
      }
      this.logger.warn({ err: error, keys: rows.length }, 'balance batch failed; writing each key on its own');
    }
    const failed: Array<{ keyId: string; amountMicros: number; error: unknown }> = [];
    let written = 0;
    for (const row of rows) {
      try {
        await this.keys.applyCharges([row]);
        written += 1;
      } catch (error) {
        failed.push({ ...row, error });
      }
    }
    if (written === 0) {
      // Nothing could be written: the database, not the rows. Keep everything for the next flush.
      this.logger.error({ err: failed[0]?.error, keys: rows.length }, 'balance write failed; will retry');
      this.#requeue(rows);
      return;
    }
    for (const row of failed) this.#reject(row.keyId, row.amountMicros, errorText(row.error));
  }

  #requeue(rows: Array<{ keyId: string; amountMicros: number }>): void {
    for (const { keyId, amountMicros } of rows) this.#queued.set(keyId, (this.#queued.get(keyId) ?? 0) + amountMicros);
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

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
