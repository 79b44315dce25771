import type { Logger } from 'pino';
import type { Kv } from './kv.ts';
import type { RedisOutageMode } from './kv-outage.ts';
import type { RedisConnection } from './open-redis.ts';

/** What `createFailoverKv` is built from. */
export interface FailoverKvOptions {
  redis: RedisConnection;
  /** The shared kv on `redis`. */
  primary: Kv;
  /** Key prefix of `primary`, for the generation marker. */
  prefix: string;
  logger: Logger;
  now: () => number;
  /**
   * Keys whose changes made locally during an outage are applied to Redis when it returns
   * (balances and spend windows), so money spent meanwhile is not given back.
   */
  replayPrefixes: readonly string[];
  /**
   * How long Redis may go without answering a single command, while commands time out on a
   * live connection, before the kv falls back. Until then each timed-out call is refused as
   * retryable and the kv stays shared. Default 5 s. Only real unavailability switches over:
   * the connection is down, or Redis answered nothing this long. Under load a command can time
   * out on a live connection (the event loop was late, not Redis); falling back for it sends
   * every request to per-process counters, where two instances each spend the whole balance: a
   * count of timeouts in a row was not enough (one stalled tick times out a whole queue of
   * commands at once, and two instances under a loaded test run served 146 requests of a
   * balance for 100), so the rule is a time without any answer.
   */
  stallBeforeFallbackMs?: number;
  /**
   * `local` (default): serve on per-process counters while Redis is unreachable, each instance
   * spending up to a whole balance or limit on its own. `refuse`: every call is refused as a
   * retryable 429 until Redis answers again, so no limit is exceeded; settles are still kept and
   * delivered once it answers.
   */
  outageMode?: RedisOutageMode;
  /** While fallen back on a live but slow connection, Redis is pinged this often to resume. Default 1 s. */
  probeIntervalMs?: number;
}

export interface FailoverKv extends Kv {
  /** False while requests are served from the per-process fallback. */
  readonly shared: boolean;
  /**
   * Called each time the kv is shared again after an outage or a failover (before its log line):
   * whatever the instances published meanwhile (a key revoked) may not have reached this one.
   */
  onRecovered(handler: () => void): void;
  /** Resolves when the current recovery (if any) has finished; for tests and shutdown. */
  settled(): Promise<void>;
}
