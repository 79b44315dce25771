import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Kv } from '../../kv/kv.ts';

/** How long a turn's envelope stays recallable after the reply that issued it. */
export const DEFAULT_REASONING_CACHE_TTL_MS = 60 * 60 * 1000;

/**
 * Envelopes larger than this (base64, so characters are bytes) are not cached: one turn must
 * not crowd out hundreds of others in the kv's byte bound. Such a turn degrades like a client
 * that dropped its reasoning.
 */
export const DEFAULT_MAX_REASONING_ENVELOPE_BYTES = 256 * 1024;

/**
 * The server-side fallback for clients that drop opaque reasoning (OpenAI Chat clients without
 * `reasoning_details`, Responses clients without `include`): the turn's envelope under each of
 * its tool-call ids, scoped by API key so one key can never pick up another's. It lives in the
 * shared kv, so with several instances (Redis) a turn served by one instance is rescued on
 * another; bounded in entries and bytes by the kv (the memory kv keeps its newest texts within
 * `maxTextEntries` and `maxTextBytes`), per entry by `maxEnvelopeBytes` (a larger envelope is not
 * kept) and in time by a TTL. The values are the sealed envelopes the client would have carried:
 * HMAC'd and bound to the upstream protocol and channel that issued them, so the kv never holds
 * a provider's raw signature and a value moved to another key or channel is refused on opening.
 *
 * The cache is a safety net, never a reason to fail: a write is not waited for, and a kv that
 * fails (or answers too slowly) on a read means "nothing recalled", which degrades the turn the
 * way a client that dropped everything does.
 */
export interface ReasoningCache {
  /** Keeps `envelope` under each call id for `scope`; returns at once and never throws. */
  remember(scope: string, callIds: readonly string[], envelope: string): void;
  /** The envelopes kept under these call ids for `scope`, in one kv round trip; absent ones are left out. */
  recall(scope: string, callIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

export interface ReasoningCacheOptions {
  kv: Kv;
  ttlMs?: number;
  /** Envelopes longer than this are not kept (default 256 KiB). */
  maxEnvelopeBytes?: number;
  logger?: Logger;
}

export function createReasoningCache(options: ReasoningCacheOptions): ReasoningCache {
  const { kv, logger } = options;
  const ttlMs = options.ttlMs ?? DEFAULT_REASONING_CACHE_TTL_MS;
  const maxEnvelopeBytes = options.maxEnvelopeBytes ?? DEFAULT_MAX_REASONING_ENVELOPE_BYTES;
  return {
    remember(scope, callIds, envelope) {
      if (callIds.length === 0) return;
      if (envelope.length > maxEnvelopeBytes) {
        logger?.debug({ bytes: envelope.length, max: maxEnvelopeBytes }, 'reasoning envelope too large to cache; clients that drop it lose it for this turn');
        return;
      }
      const keys = callIds.map((callId) => reasoningCacheKey(scope, callId));
      const failed = (error: unknown) => logger?.warn({ err: error }, 'could not keep reasoning state in the kv; clients that drop it lose it for this turn');
      try {
        kv.setTexts(keys, envelope, ttlMs).catch(failed);
      } catch (error) {
        failed(error);
      }
    },
    async recall(scope, callIds) {
      const found = new Map<string, string>();
      const unique = [...new Set(callIds)];
      if (unique.length === 0) return found;
      let values: Array<string | undefined>;
      try {
        values = await kv.getTexts(unique.map((callId) => reasoningCacheKey(scope, callId)));
      } catch (error) {
        logger?.warn({ err: error }, 'could not read reasoning state from the kv; the turn goes on as if the client had dropped it');
        return found;
      }
      unique.forEach((callId, index) => {
        const value = values[index];
        if (value !== undefined) found.set(callId, value);
      });
      return found;
    },
  };
}

/**
 * `reasoning:<key id>:<hash of the call id>`: the API key's id is part of the name (another key
 * asks for other names), and the call id, which the client chose, is hashed to a fixed length.
 */
export function reasoningCacheKey(scope: string, callId: string): string {
  return `reasoning:${scope}:${createHash('sha256').update(callId).digest('base64url').slice(0, 24)}`;
}
