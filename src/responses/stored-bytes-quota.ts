import { GatewayError } from '../core/gateway-error.ts';
import type { StoredResponseRepository } from '../store/store.ts';

/** How long a key's stored total read from the database is trusted before it is read again. */
const REFRESH_MS = 10_000;
const MAX_CACHED_KEYS = 10_000;

/**
 * The per-key bound on kept Responses turns (RESPONSES_MAX_KEY_BYTES). A key's total is read
 * from the store (one SUM) at most every ten seconds per process and grown here by each turn
 * this process keeps, so a request with `store` on costs no query in the common case. Other
 * instances' turns are seen at the next read: a key can overshoot by what it stores in ten
 * seconds, never by more than one turn per request.
 */
export class StoredBytesQuota {
  readonly #known = new Map<string, { bytes: number; readAt: number }>();

  constructor(
    private readonly repository: Pick<StoredResponseRepository, 'storedBytes'>,
    readonly limitBytes: number,
    private readonly now: () => number,
  ) {}

  /** 429 `stored_responses_limit` when the key already keeps its bound's worth of turns. */
  async check(keyId: string): Promise<void> {
    const now = this.now();
    let known = this.#known.get(keyId);
    if (known === undefined || now - known.readAt >= REFRESH_MS) {
      known = { bytes: await this.repository.storedBytes(keyId, now), readAt: now };
      if (this.#known.size >= MAX_CACHED_KEYS) this.#known.delete(this.#known.keys().next().value as string);
      this.#known.set(keyId, known);
    }
    if (known.bytes >= this.limitBytes) {
      throw new GatewayError(
        'stored_responses_limit',
        `This key keeps ${known.bytes} bytes of stored responses, its limit is ${this.limitBytes}: delete some (DELETE /v1/responses/{id}), wait for them to expire, or send "store": false.`,
        { param: 'store' },
      );
    }
  }

  /** A turn of this key was kept. */
  added(keyId: string, bytes: number): void {
    const known = this.#known.get(keyId);
    if (known !== undefined) known.bytes += bytes;
  }
}
