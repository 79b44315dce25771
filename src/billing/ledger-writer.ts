import type { Logger } from 'pino';
import type { LedgerAttempt, LedgerCharge } from '../domain/ledger-entry.ts';
import type { LedgerRepository } from '../store/ledger-repository-port.ts';

const FLUSH_INTERVAL_MS = 200;
const BATCH_REQUESTS = 200;
/** Beyond this many unwritten requests (the database is down), the oldest are dropped and counted. */
const MAX_QUEUED = 100_000;

/**
 * Takes ledger rows off the request path and writes them in batches, beside the usage writer.
 * A batch the database refuses goes back to the queue and is retried (bounded); rows are keyed by
 * request and attempt, so a retried batch never writes a row twice.
 */
export class LedgerWriter {
  #attempts: LedgerAttempt[] = [];
  #charges: LedgerCharge[] = [];
  #queuedRequests = 0;
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout;
  dropped = 0;

  constructor(
    private readonly repository: Pick<LedgerRepository, 'insertMany'>,
    private readonly logger: Logger,
  ) {
    this.#timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.#timer.unref();
  }

  record(rows: { attempts: LedgerAttempt[]; charges: LedgerCharge[] }): void {
    if (rows.attempts.length === 0 && rows.charges.length === 0) return;
    if (this.#queuedRequests >= MAX_QUEUED) {
      this.dropped += 1;
      return;
    }
    this.#attempts.push(...rows.attempts);
    this.#charges.push(...rows.charges);
    this.#queuedRequests += 1;
    if (this.#queuedRequests >= BATCH_REQUESTS) void this.flush();
  }

  /** Writes what is queued (waits for a flush in progress first). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#attempts.length === 0 && this.#charges.length === 0) return;
    const attempts = this.#attempts;
    const charges = this.#charges;
    const requests = this.#queuedRequests;
    this.#attempts = [];
    this.#charges = [];
    this.#queuedRequests = 0;
    this.#flushing = (async () => {
      try {
        await this.repository.insertMany(attempts, charges);
      } catch (error) {
        this.logger.warn({ err: error, rows: attempts.length + charges.length }, 'ledger rows not written; retrying');
        this.#attempts.unshift(...attempts);
        this.#charges.unshift(...charges);
        this.#queuedRequests += requests;
      } finally {
        this.#flushing = undefined;
      }
    })();
    await this.#flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
