import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { requireOnDemand } from '../core/require-on-demand.ts';
import { keepReconnecting } from './keep-reconnecting.ts';
import type { RedisAuth, RedisTarget } from './redis-target.ts';

/** One Redis, or a Cluster: both take the same commands (a Cluster routes each by its key's slot). */
export type RedisConnection = Redis | Cluster;

export interface OpenRedisOptions {
  subscriber?: boolean;
  name?: string;
}

/**
 * A Redis connection tuned for the hot path: while Redis is unreachable, commands fail at
 * once (no offline queue, no resending after a reconnect) so callers switch to their local
 * fallback instead of waiting, and nothing is applied twice when the connection returns.
 * Reconnection is retried forever in the background; behind Sentinel it asks the sentinels
 * for the current primary each time (and is told of a promotion at once), in a Cluster the
 * slot map is refreshed when a node stops answering.
 */
export function openRedis(target: RedisTarget | string, options: OpenRedisOptions = {}): RedisConnection {
  const ioredis = requireOnDemand('ioredis') as typeof import('ioredis');
  const resolved: RedisTarget = typeof target === 'string' ? { mode: 'standalone', url: target } : target;
  const common = connectionOptions(options);
  switch (resolved.mode) {
    case 'standalone':
      return new ioredis.Redis(resolved.url, common);
    case 'sentinel': {
      const connection = new ioredis.Redis({
        ...common,
        ...authOptions(resolved),
        sentinels: resolved.sentinels,
        name: resolved.name,
        role: 'master',
        ...(resolved.sentinelUsername === undefined ? {} : { sentinelUsername: resolved.sentinelUsername }),
        ...(resolved.sentinelPassword === undefined ? {} : { sentinelPassword: resolved.sentinelPassword }),
        ...(resolved.tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
        // Subscribes to the sentinels' +switch-master, so a promotion is followed at once rather
        // than when the old primary's connection times out.
        failoverDetector: true,
        sentinelRetryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000),
      });
      // A failover notice can end the connection for good while it reconnects: start it again.
      keepReconnecting(connection);
      return connection;
    }
    case 'cluster': {
      const { retryStrategy: _perNode, enableOfflineQueue, ...redisOptions } = common;
      const clusterOptions: ClusterOptions = {
        enableOfflineQueue,
        redisOptions: { ...redisOptions, ...authOptions(resolved) },
        clusterRetryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000),
        // A moved slot or a failover is retried after these delays; the command timeout bounds the total.
        retryDelayOnFailover: 200,
        retryDelayOnClusterDown: 200,
        slotsRefreshTimeout: 2_000,
        slotsRefreshInterval: 5_000,
        ...(resolved.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
      };
      return new ioredis.Cluster(resolved.nodes, clusterOptions);
    }
  }
}

function connectionOptions(options: OpenRedisOptions): RedisOptions {
  return {
    connectionName: options.name ?? 'switchyard',
    // A subscriber may queue its SUBSCRIBE until connected; ioredis re-subscribes on reconnect.
    enableOfflineQueue: options.subscriber === true,
    maxRetriesPerRequest: options.subscriber === true ? null : 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: 2_000,
    ...(options.subscriber === true ? {} : { commandTimeout: 1_000 }),
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    lazyConnect: false,
  };
}

function authOptions(auth: RedisAuth): RedisOptions {
  return {
    ...(auth.username === undefined ? {} : { username: auth.username }),
    ...(auth.password === undefined ? {} : { password: auth.password }),
    ...(auth.tls ? { tls: {} } : {}),
  };
}

/** Resolves once the connection is ready, or false after `timeoutMs`. */
export function waitForRedis(redis: RedisConnection, timeoutMs: number): Promise<boolean> {
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
