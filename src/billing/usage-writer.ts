import { isDatabaseUnavailable } from '../store/is-database-unavailable.ts';
import type { Logger } from 'pino';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import type { UsageLogRepository } from '../store/store.ts';

export interface UsageWriterOptions {
  /** Flush at least this often. */
  flushIntervalMs: number;
  /** Flush as soon as this many entries wait. */
  batchSize: number;
  /** Beyond this many unwritten entries (the database is down), the oldest are dropped and counted. */
  maxQueued: number;
}

/**
 * Takes usage log entries off the hot path: `record` only pushes to an array; a timer writes
 * them in batches. If the database is unavailable the batch goes back to the queue and is
 * retried (bounded), so a short outage loses nothing.
 */
export class UsageWriter {
  #queue: UsageLogEntry[] = [];
  #timer: NodeJS.Timeout;
  #flushing: Promise<void> | undefined;
  dropped = 0;
  /** Rows that could not be written on their own while others could (set aside, logged). */
  rejected = 0;

  constructor(
    private readonly repository: UsageLogRepository,
    private readonly logger: Logger,
    // Small, frequent batches: rows held across garbage collections get copied and promoted,
    // which cost more than the extra transactions (measured at ~2k requests/s).
    private readonly options: UsageWriterOptions = { flushIntervalMs: 100, batchSize: 200, maxQueued: 100_000 },
  ) {
    this.#timer = setInterval(() => void this.flush(), options.flushIntervalMs);
    this.#timer.unref();
  }

  get pending(): number {
    return this.#queue.length;
  }

  record(entry: UsageLogEntry): void {
    this.#queue.push(entry);
    if (this.#queue.length > this.options.maxQueued) {
      this.#queue.shift();
      this.dropped += 1;
      if (this.dropped === 1 || this.dropped % 10_000 === 0) {
        this.logger.warn({ dropped: this.dropped, maxQueued: this.options.maxQueued }, 'usage log queue full (database unreachable): dropping the oldest rows');
      }
    }
    if (this.#queue.length >= this.options.batchSize) void this.flush();
  }

  /** Writes everything queued so far; resolves when it is in the database (or failed). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    this.#flushing = this.#write(batch).finally(() => {
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  /**
   * One transaction for the batch; if it fails, the batch is split in halves down to single
   * rows, so every row that can be written is. A row that fails alone while others were
   * written is set aside (logged, counted in `rejected`): one bad row never blocks the
   * others. If nothing could be written the database is at fault, and the batch is retried.
   */
  async #write(batch: UsageLogEntry[]): Promise<void> {
    try {
      await this.repository.insertMany(batch);
      return;
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) {
        this.logger.error({ err: error, entries: batch.length }, 'usage log write failed; will retry');
        this.#queue = batch.concat(this.#queue);
        return;
      }
    }
    const failed: Array<{ entry: UsageLogEntry; error: unknown }> = [];
    const middle = Math.ceil(batch.length / 2);
    const written = (await this.#bisect(batch.slice(0, middle), failed)) + (await this.#bisect(batch.slice(middle), failed));
    if (written === 0) {
      this.logger.error({ err: failed[0]?.error, entries: batch.length }, 'usage log write failed; will retry');
      this.#queue = batch.concat(this.#queue);
      return;
    }
    for (const { entry, error } of failed) {
      this.rejected += 1;
      this.logger.error({ err: error, requestId: entry.requestId }, 'usage row set aside: it cannot be written; the rest of the batch continues');
    }
  }

  async #bisect(rows: UsageLogEntry[], failed: Array<{ entry: UsageLogEntry; error: unknown }>): Promise<number> {
    try {
      await this.repository.insertMany(rows);
      return rows.length;
    } catch (error) {
      if (rows.length === 1) {
        failed.push({ entry: rows[0] as UsageLogEntry, error });
        return 0;
      }
      const middle = Math.ceil(rows.length / 2);
      return (await this.#bisect(rows.slice(0, middle), failed)) + (await this.#bisect(rows.slice(middle), failed));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
