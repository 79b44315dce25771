/** The outcome of a bounded adjustment: whether it was applied, and the value now stored. */
export interface KvAdjustResult {
  applied: boolean;
  value: number;
  /** Set when `requireExisting` refused the change because the key is absent. */
  missing?: true;
}

export interface KvAdjustOptions {
  /** Refuse the change when the result would fall below this. */
  min?: number;
  /** Refuse the change when the result would rise above this. */
  max?: number;
  /** Lifetime of the entry when this call creates it; an existing entry keeps its expiry. */
  ttlMs?: number;
  /**
   * Refuse the change when the key is absent (`missing: true`), instead of counting it as 0.
   * Callers whose keys must be seeded first (balances) use it, so a kv that lost its data
   * (a Redis restart, a switch to the local fallback) is noticed and re-seeded, never read as 0.
   */
  requireExisting?: boolean;
}

/**
 * What an account has been funded with, as of a record version: the database's balance plus
 * what it has spent (settled charges move money from one to the other, so the sum changes only
 * when the operator or a redemption adds or takes money). A hold carrying a newer version than
 * the account has seen adds the difference to the account: a top-up is a delta applied to the
 * one account every in-flight hold is on, never a fresh account that forgets them.
 */
export interface KvFunding {
  version: number;
  fundedMicros: number;
}

export interface KvHoldOptions {
  /** Refuse the hold when the value would fall below this. */
  min?: number;
  /** Refuse the hold when the value would rise above this. */
  max?: number;
  /** Applied (when newer than what the account has seen) before the bounds are checked. */
  funding?: KvFunding;
}

/** How long a hold's record is kept: longer than any request runs (a crashed holder's record expires). */
export const HOLD_RECORD_TTL_MS = 86_400_000;
/** How long a settle that found no hold is remembered, so a hold arriving late (a command Redis ran after a stall) is refused. */
export const SETTLED_MARK_TTL_MS = 3_600_000;

export interface KvLeaseOptions {
  /** Refuse when this many unexpired leases are already held. */
  max: number;
  /** The lease ends by itself after this long, so a crashed holder cannot keep it forever. */
  ttlMs: number;
}

/**
 * Shared counters for the hot path: balances, spend windows, rate-limit windows and
 * concurrency slots. Every method is atomic on its own key, which is all the callers rely on:
 * a check-and-change happens in one step, so concurrent requests can never both pass a
 * limit that only one of them fits under.
 *
 * Values are integers (micro-USD, tokens, requests). One process uses `createMemoryKv()`;
 * several instances share a Redis implementation that must pass `test/kv/kv-conformance.ts`
 * (each method maps to one Lua script or one command: GET, SET NX PX, a bounded INCRBY, DEL,
 * MGET, and SET PX in one pipeline).
 */
export interface Kv {
  /** The stored value, or undefined when absent or expired. */
  get(key: string): Promise<number | undefined>;
  /** Stores `value` unless the key already holds one; returns the value now stored. */
  setIfAbsent(key: string, value: number, ttlMs?: number): Promise<number>;
  /**
   * Adds `delta` (an absent key counts as 0) when the result stays within `min`/`max`;
   * otherwise leaves the value alone and reports `applied: false`.
   */
  adjust(key: string, delta: number, options?: KvAdjustOptions): Promise<KvAdjustResult>;
  delete(key: string): Promise<void>;
  /**
   * Seeds an account (a value that holds are made on) unless it exists, with the funding it was
   * read at; returns the value now stored. `setIfAbsent` plus the funding, in one step.
   */
  seedAccount(key: string, value: number, options?: { ttlMs?: number; funding?: KvFunding }): Promise<number>;
  /**
   * Holds `delta` on an existing key (`missing: true` when absent) under `holdId`, when the
   * result stays within the bounds; the hold is recorded, so it can be settled or released
   * exactly once by id. A hold whose id was already settled (released before it arrived, say a
   * command Redis ran late after the caller gave up on it) is refused; one already recorded is
   * not applied twice.
   */
  hold(key: string, holdId: string, delta: number, options?: KvHoldOptions): Promise<KvAdjustResult>;
  /**
   * Replaces the hold `holdId` on `key` with `finalDelta` (0 releases it) and forgets it.
   * Idempotent: an unknown or already settled id changes nothing, and is marked so that a hold
   * with that id arriving later is refused.
   */
  settle(key: string, holdId: string, finalDelta: number): Promise<void>;
  /** The value of an account with `funding` applied when newer; undefined when absent. */
  fund(key: string, funding: KvFunding): Promise<number | undefined>;
  /**
   * Takes one of at most `max` leases under `key` for `holder` (a unique id per request),
   * dropping expired ones first; `value` is the number held now (after the change, if applied).
   */
  acquireLease(key: string, holder: string, options: KvLeaseOptions): Promise<KvAdjustResult>;
  /** Gives a lease back; a lease that has expired or is unknown is ignored. */
  releaseLease(key: string, holder: string): Promise<void>;
  /**
   * Short text values (conversation affinity: which channel and key served a conversation),
   * read in one round trip: one entry per key, undefined when absent or expired. Text keys live
   * beside the counters but are never adjusted.
   */
  getTexts(keys: readonly string[]): Promise<Array<string | undefined>>;
  /** Stores `value` under every key, each expiring `ttlMs` from now (a later write renews it). */
  setTexts(keys: readonly string[], value: string, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}
