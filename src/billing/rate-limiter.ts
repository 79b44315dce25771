import { randomUUID } from 'node:crypto';
import { GatewayError } from '../core/gateway-error.ts';
import type { Kv } from '../kv/kv.ts';
import type { ApiKey } from '../domain/api-key.ts';

const MINUTE = 60_000;
/** A concurrency slot ends by itself after this long unless given back (a crashed instance's slots). */
export const DEFAULT_SLOT_LEASE_MS = 11 * MINUTE;

/** A request's place under its key's rate limits, given back when it ends. */
export interface RateLease {
  /** Frees the concurrency slot and corrects the token window to the tokens really used. */
  release(actualTokens: number): Promise<void>;
}

/** The lease of a key without rate limits: nothing was taken, nothing to give back. */
export const UNLIMITED_RATE_LEASE: RateLease = Object.freeze({ release: () => Promise.resolve() });

/** Whether the key has any limit `RateLimiter.admit` enforces (most keys have none). */
export function hasRateLimits(key: ApiKey): boolean {
  const { requestsPerMinute, tokensPerMinute, concurrentRequests } = key.limits;
  return requestsPerMinute !== undefined || tokensPerMinute !== undefined || concurrentRequests !== undefined;
}

/**
 * Per-key requests per minute, tokens per minute and concurrent requests, in fixed one-minute
 * windows in the kv (one INCR per window in Redis). Refusals are 429 `rate_limited` with the
 * seconds until the window turns over (or 1 s for a busy concurrency limit).
 */
export class RateLimiter {
  constructor(
    private readonly kv: Kv,
    private readonly now: () => number,
    /** Longer than the longest request (the upstream total timeout), so live requests keep their slot. */
    private readonly slotLeaseMs = DEFAULT_SLOT_LEASE_MS,
  ) {}

  /**
   * Counts `count` more requests in the key's current requests-per-minute window, or refuses them
   * all (429): the upstream calls beyond the first that one request makes (an embeddings batch
   * split for an upstream that takes one text a call) count like requests of their own.
   */
  async takeRequests(key: ApiKey, count: number): Promise<void> {
    const limit = key.limits.requestsPerMinute;
    if (limit === undefined) return;
    const now = this.now();
    const minute = Math.floor(now / MINUTE);
    const retryAfterSeconds = Math.max(1, Math.ceil(((minute + 1) * MINUTE - now) / 1000));
    const result = await this.kv.adjust(requestWindow(key, minute), count, { max: limit, ttlMs: 2 * MINUTE });
    if (!result.applied) {
      throw new GatewayError(
        'rate_limited',
        `This request needs ${plural(count + 1, 'upstream call')} (the model's channel takes a few texts a call), counted against this API key's limit of ${plural(limit, 'request')} per minute, which leaves room for ${Math.max(0, limit - result.value)} more. Send fewer texts per request, retry in ${retryAfterSeconds} s, or ask the operator to raise the key's requests-per-minute limit.`,
        { retryAfterSeconds },
      );
    }
  }

  async admit(key: ApiKey, estimatedTokens: number): Promise<RateLease> {
    const { requestsPerMinute, tokensPerMinute, concurrentRequests } = key.limits;
    const undo: Array<() => Promise<unknown>> = [];
    const fail = async (error: GatewayError): Promise<never> => {
      await Promise.all(undo.map((step) => step()));
      throw error;
    };
    const now = this.now();
    const minute = Math.floor(now / MINUTE);
    const retryAfterSeconds = Math.max(1, Math.ceil(((minute + 1) * MINUTE - now) / 1000));
    const ttlMs = 2 * MINUTE;

    const slots = `rate:${key.id}:concurrent`;
    // Only a key with a concurrency limit holds a slot (and needs a holder id for it).
    const holder = concurrentRequests === undefined ? '' : randomUUID();
    if (concurrentRequests !== undefined) {
      const result = await this.kv.acquireLease(slots, holder, { max: concurrentRequests, ttlMs: this.slotLeaseMs });
      if (!result.applied) {
        await fail(
          new GatewayError(
            'rate_limited',
            `This API key already has ${plural(result.value, 'request')} in progress, its limit of concurrent requests (${concurrentRequests}). Wait for one to finish and retry, or ask the operator to raise the key's concurrency limit.`,
            { retryAfterSeconds: 1 },
          ),
        );
      }
      undo.push(() => this.kv.releaseLease(slots, holder));
    }

    if (requestsPerMinute !== undefined) {
      const name = requestWindow(key, minute);
      const result = await this.kv.adjust(name, 1, { max: requestsPerMinute, ttlMs });
      if (!result.applied) {
        await fail(
          new GatewayError(
            'rate_limited',
            `This API key is limited to ${plural(requestsPerMinute, 'request')} per minute and has used them all. Retry in ${retryAfterSeconds} s, or ask the operator to raise the key's requests-per-minute limit.`,
            { retryAfterSeconds },
          ),
        );
      }
      undo.push(() => this.kv.adjust(name, -1));
    }

    let tokenWindow: string | undefined;
    if (tokensPerMinute !== undefined) {
      tokenWindow = `rate:${key.id}:tpm:${minute}`;
      // Admitted while the window is still below the limit, so one large request is not refused forever.
      const result = await this.kv.adjust(tokenWindow, estimatedTokens, { max: tokensPerMinute - 1 + estimatedTokens, ttlMs });
      if (!result.applied) {
        await fail(
          new GatewayError(
            'rate_limited',
            `This API key is limited to ${tokensPerMinute} tokens per minute and has used ${result.value} in this minute. Retry in ${retryAfterSeconds} s, or ask the operator to raise the key's tokens-per-minute limit.`,
            { retryAfterSeconds },
          ),
        );
      }
    }

    let released = false;
    return {
      release: async (actualTokens) => {
        if (released) return;
        released = true;
        const steps: Array<Promise<unknown>> = [];
        if (concurrentRequests !== undefined) steps.push(this.kv.releaseLease(slots, holder));
        if (tokenWindow !== undefined && actualTokens !== estimatedTokens) {
          steps.push(this.kv.adjust(tokenWindow, actualTokens - estimatedTokens, { ttlMs }));
        }
        await Promise.all(steps);
      },
    };
  }
}

function requestWindow(key: ApiKey, minute: number): string {
  return `rate:${key.id}:rpm:${minute}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
