import type { Logger } from 'pino';
import type { ApiKeyRepository } from '../store/store.ts';

/**
 * Persists settled charges off the hot path, like the usage writer: `record` only adds to a
 * per-key total; a timer applies the totals in one transaction. `pending(keyId)` is what is
 * charged but not yet in the database, so a balance re-read from the store can be corrected.
 */
export class ChargeWriter {
  #queued = new Map<string, number>();
  #inFlight = new Map<string, number>();
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout;

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
    this.#flushing = this.keys
      .applyCharges([...batch].map(([keyId, amountMicros]) => ({ keyId, amountMicros })))
      .catch((error: unknown) => {
        this.logger.error({ err: error, keys: batch.size }, 'balance write failed; will retry');
        for (const [keyId, amount] of batch) this.record(keyId, amount);
      })
      .finally(() => {
        this.#inFlight = new Map();
        this.#flushing = undefined;
      });
    await this.#flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
