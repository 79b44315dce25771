import { isDatabaseUnavailable } from '../store/is-database-unavailable.ts';
import type { Logger } from 'pino';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import type { UsageLogRepository } from '../store/store.ts';
import { UsageBatch } from '../ledger/usage-batch.ts';

export interface UsageWriterOptions {
  /** Flush at least this often. */
  flushIntervalMs: number;
  /** Flush as soon as this many entries wait. */
  batchSize: number;
  /** Beyond this many unwritten entries (the database is down), the oldest are dropped and counted. */
  maxQueued: number;
  /**
   * Rows per transaction when a flush writes (default 32). A synchronous SQLite insert holds
   * the event loop for ~20 µs a row, so one 200-row transaction is a ~4 ms stall that a request
   * arriving meanwhile waits out (the c=1 p99); slices of this many rows, with the event loop
   * served between them, bound that wait to one slice (~0.6 ms) for ~45 µs more per slice.
   */
  rowsPerWrite?: number;
}

/**
 * Who else hears of each usage row (the gateway's access log and metrics), passed in when the
 * writer is built. `recorded` runs on the request path, as the row is recorded; `observed` runs
 * off it, once per row, when the row is written (or earlier, through `observeQueued`).
 */
export interface UsageListeners {
  recorded?(entry: UsageLogEntry): void;
  observed?(entry: UsageLogEntry): void;
}

// Small, frequent batches: rows held across garbage collections get copied and promoted, which
// cost more than the extra transactions (measured at ~2k requests/s).
export const DEFAULT_USAGE_WRITER_OPTIONS: UsageWriterOptions = { flushIntervalMs: 100, batchSize: 200, maxQueued: 100_000 };

/** The default `rowsPerWrite`. */
export const DEFAULT_ROWS_PER_WRITE = 32;

/**
 * Takes usage log entries off the hot path: `record` copies the row into a columnar batch
 * (`UsageBatch`: no object per row outlives the request); a timer, or a full batch, writes
 * them. If the database is unavailable the rows go back to the queue and are retried
 * (bounded), so a short outage loses nothing.
 */
export class UsageWriter {
  /** Rows waiting, oldest batch first; the last one is being filled. */
  #batches: UsageBatch[] = [];
  /** Rows of a write the database refused, written before the batches (rare). */
  #retry: UsageLogEntry[] = [];
  /** Emptied batches, reused so their arrays are not allocated again. */
  #spare: UsageBatch[] = [];
  #queued = 0;
  /** Rows taken by the flush in progress and not yet observed; observed slice by slice as written. */
  #unobserved: UsageLogEntry[] = [];
  #nextUnobserved = 0;
  #timer: NodeJS.Timeout;
  #flushing: Promise<void> | undefined;
  dropped = 0;
  /** Rows that could not be written on their own while others could (set aside, logged). */
  rejected = 0;

  constructor(
    private readonly repository: UsageLogRepository,
    private readonly logger: Logger,
    private readonly options: UsageWriterOptions = DEFAULT_USAGE_WRITER_OPTIONS,
    private readonly listeners: UsageListeners = {},
  ) {
    this.#timer = setInterval(() => void this.flush(), options.flushIntervalMs);
    this.#timer.unref();
  }

  get pending(): number {
    return this.#queued + this.#retry.length;
  }

  record(entry: UsageLogEntry): void {
    this.listeners.recorded?.(entry);
    let tail = this.#batches[this.#batches.length - 1];
    if (tail === undefined || tail.full) {
      tail = this.#spare.pop() ?? new UsageBatch(this.options.batchSize);
      this.#batches.push(tail);
    }
    tail.push(entry);
    this.#queued += 1;
    if (this.pending > this.options.maxQueued) this.#dropOldest();
    if (tail.full) void this.flush();
  }

  /**
   * Called once per recorded row, from the batch, off the request path: when the batch is
   * written, or earlier through `observeQueued` (the gateway's writer counts rows into the
   * metrics, and a scrape calls `observeQueued` first so it misses nothing).
   */
  private observe(entry: UsageLogEntry): void {
    this.listeners.observed?.(entry);
  }

  /** Hands every queued row not yet observed to `observe`. */
  observeQueued(): void {
    this.#observeTaken(Number.POSITIVE_INFINITY);
    for (const batch of this.#batches) {
      for (let row = batch.observed; row < batch.length; row++) this.observe(batch.entry(row));
      batch.observed = batch.length;
    }
  }

  /** Observes up to `count` of the rows the flush took (in order, each once). */
  #observeTaken(count: number): void {
    const end = Math.min(this.#unobserved.length, this.#nextUnobserved + count);
    while (this.#nextUnobserved < end) this.observe(this.#unobserved[this.#nextUnobserved++] as UsageLogEntry);
  }

  #dropOldest(): void {
    // The database has been unreachable for a while: make room by whole batches (or retried rows).
    let count: number;
    if (this.#retry.length > 0) {
      count = 1;
      this.#retry.shift();
    } else {
      const oldest = this.#batches.shift() as UsageBatch;
      count = oldest.length;
      this.#queued -= count;
    }
    const before = this.dropped;
    this.dropped += count;
    if (before === 0 || Math.floor(before / 10_000) !== Math.floor(this.dropped / 10_000)) {
      this.logger.warn({ dropped: this.dropped, maxQueued: this.options.maxQueued }, 'usage log queue full (database unreachable): dropping the oldest rows');
    }
  }

  /** Writes everything queued so far; resolves when it is in the database (or failed). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.pending === 0) return;
    const batch = this.#retry;
    this.#retry = [];
    for (const queued of this.#batches) {
      for (let row = 0; row < queued.length; row++) {
        const entry = queued.entry(row);
        // Observed with its slice, not all here: the metrics cost ~4.5 us a row, a ~1 ms
        // stall for 200 rows before the first slice was written.
        if (row >= queued.observed) this.#unobserved.push(entry);
        batch.push(entry);
      }
      queued.reset();
      if (this.#spare.length < 4) this.#spare.push(queued);
    }
    this.#batches = [];
    this.#queued = 0;
    this.#flushing = this.#writeInSlices(batch).finally(() => {
      // Whatever the write's outcome, every row taken is observed once.
      this.#observeTaken(Number.POSITIVE_INFINITY);
      this.#unobserved = [];
      this.#nextUnobserved = 0;
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  /**
   * Writes the rows a slice (`rowsPerWrite`) per transaction, in order, yielding to the event
   * loop between slices so requests are not held behind the whole flush. If the database is
   * unavailable for one slice, it and every slice after it are kept for the retry, in order.
   * Rows are idempotent by request id, so a slice written twice (a retry after an ambiguous
   * failure) is still logged once.
   */
  async #writeInSlices(rows: UsageLogEntry[]): Promise<void> {
    const size = Math.max(1, this.options.rowsPerWrite ?? DEFAULT_ROWS_PER_WRITE);
    for (let start = 0; start < rows.length; start += size) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      this.#observeTaken(size);
      if (await this.#write(rows.slice(start, start + size))) {
        this.#retry = this.#retry.concat(rows.slice(start + size));
        return;
      }
    }
  }

  /**
   * One transaction for the slice; if it fails, the slice is split in halves down to single
   * rows, so every row that can be written is. A row that fails alone while others were
   * written is set aside (logged, counted in `rejected`): one bad row never blocks the
   * others. If nothing could be written the database is at fault, and the slice is retried.
   * Returns true when the database is unavailable (the slices after it are not tried now).
   */
  async #write(batch: UsageLogEntry[]): Promise<boolean> {
    try {
      await this.repository.insertMany(batch);
      return false;
    } catch (error) {
      const unavailable = isDatabaseUnavailable(error);
      if (batch.length === 1 || unavailable) {
        this.logger.error({ err: error, entries: batch.length }, 'usage log write failed; will retry');
        this.#retry = this.#retry.concat(batch);
        return unavailable;
      }
    }
    const failed: Array<{ entry: UsageLogEntry; error: unknown }> = [];
    const middle = Math.ceil(batch.length / 2);
    const written = (await this.#bisect(batch.slice(0, middle), failed)) + (await this.#bisect(batch.slice(middle), failed));
    if (written === 0) {
      this.logger.error({ err: failed[0]?.error, entries: batch.length }, 'usage log write failed; will retry');
      this.#retry = this.#retry.concat(batch);
      return false;
    }
    for (const { entry, error } of failed) {
      this.rejected += 1;
      this.logger.error({ err: error, requestId: entry.requestId }, 'usage row set aside: it cannot be written; the rest of the batch continues');
    }
    return false;
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
