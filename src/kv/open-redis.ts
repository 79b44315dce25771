import type { Redis } from 'ioredis';
import { requireOnDemand } from '../core/require-on-demand.ts';

/**
 * A Redis connection tuned for the hot path: while Redis is unreachable, commands fail at
 * once (no offline queue, no resending after a reconnect) so callers switch to their local
 * fallback instead of waiting, and nothing is applied twice when the connection returns.
 * Reconnection is retried forever in the background.
 */
export function openRedis(url: string, options: { subscriber?: boolean; name?: string } = {}): Redis {
  const { Redis: RedisClient } = requireOnDemand('ioredis') as typeof import('ioredis');
  return new RedisClient(url, {
    connectionName: options.name ?? 'switchyard',
    // A subscriber may queue its SUBSCRIBE until connected; ioredis re-subscribes on reconnect.
    enableOfflineQueue: options.subscriber === true,
    maxRetriesPerRequest: options.subscriber === true ? null : 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: 2_000,
    ...(options.subscriber === true ? {} : { commandTimeout: 1_000 }),
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    lazyConnect: false,
  });
}

/** Resolves once the connection is ready, or false after `timeoutMs`. */
export function waitForRedis(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    timer.unref();
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
