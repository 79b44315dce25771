/**
 * The server-side fallback for clients that drop opaque reasoning (OpenAI Chat clients without
 * `reasoning_details`, Responses clients without `include`): the turn's envelope under each of
 * its tool-call ids, scoped by API key so one key can never pick up another's. Bounded in
 * entries (oldest evicted first) and in time. One per process: with several instances behind
 * a balancer a client may land elsewhere, so the envelope in the client's own slot is the
 * primary path and this is the safety net.
 */
export interface ReasoningCache {
  remember(scope: string, callIds: string[], envelope: string): void;
  recall(scope: string, callId: string): string | undefined;
  readonly size: number;
}

export interface ReasoningCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
  now?: () => number;
}

export function createReasoningCache(options: ReasoningCacheOptions = {}): ReasoningCache {
  const maxEntries = options.maxEntries ?? 20_000;
  const ttlMs = options.ttlMs ?? 60 * 60 * 1000;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order, so the first key is always the oldest entry.
  const entries = new Map<string, { envelope: string; expiresAt: number }>();
  const keyOf = (scope: string, callId: string) => `${scope}\u0000${callId}`;
  return {
    remember(scope, callIds, envelope) {
      const expiresAt = now() + ttlMs;
      for (const callId of callIds) {
        const key = keyOf(scope, callId);
        entries.delete(key);
        entries.set(key, { envelope, expiresAt });
        while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      }
    },
    recall(scope, callId) {
      const key = keyOf(scope, callId);
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.envelope;
    },
    get size() {
      return entries.size;
    },
  };
}
