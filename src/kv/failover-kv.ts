import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Kv } from './kv.ts';

export interface FailoverKvOptions {
  redis: Redis;
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
   * retryable and the kv stays shared. Default 5 s.
   */
  stallBeforeFallbackMs?: number;
  /** While fallen back on a live but slow connection, Redis is pinged this often to resume. Default 1 s. */
  probeIntervalMs?: number;
}

export interface FailoverKv extends Kv {
  /** False while requests are served from the per-process fallback. */
  readonly shared: boolean;
  /** Resolves when the current recovery (if any) has finished; for tests and shutdown. */
  settled(): Promise<void>;
}
