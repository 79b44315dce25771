import { randomBytes } from 'node:crypto';
import type { RedisConnection } from '../kv/open-redis.ts';
import type { Logger } from 'pino';
import { createFailoverKv, type FailoverKv } from '../kv/create-failover-kv.ts';
import type { RedisOutageMode } from '../kv/kv-outage.ts';
import { createMemoryKv } from '../kv/create-memory-kv.ts';
import { createRedisKv } from '../kv/create-redis-kv.ts';
import type { Kv } from '../kv/kv.ts';
import { closeRedis } from '../kv/close-redis.ts';
import { startHoldJournal } from '../kv/hold-journal.ts';
import { openRedis, waitForRedis } from '../kv/open-redis.ts';
import type { RedisTarget } from '../kv/redis-target.ts';
import type { CircuitFeed } from '../domain/circuit-transition.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import { createLocalEventBus, createRedisEventBus, type ClusterEvent, type EventBus } from './event-bus.ts';
import { alwaysLeader, startPostgresLeaderElection, startRedisLeaderElection, type LeaderElection } from './leader-election.ts';

/** What instances share, or its single-process stand-ins when Redis is not configured. */
export interface ClusterServices {
  kv: Kv;
  bus: EventBus;
  leader: LeaderElection;
  /** Present when REDIS_URL is set. */
  redis: RedisConnection | undefined;
  /** True when the kv is shared right now (Redis configured and reachable). */
  shared(): boolean;
  /** Wires snapshot invalidation and circuit sharing through the bus. */
  attach(snapshot: SnapshotHolder, health: CircuitFeed): void;
  close(): Promise<void>;
}

/** Arbitrary but fixed: the advisory lock every instance of one database contends for. */
const LEADER_LOCK_ID = 0x53_77_59_64;
const MAX_REFRESH_RETRY_MS = 30_000;

export async function startClusterServices(input: {
  redisTarget: RedisTarget | undefined;
  /** While Redis is unreachable: per-instance counters, or a retryable 429. */
  outageMode: RedisOutageMode;
  /** Prepended to every Redis key and channel (default `switchyard:`). */
  redisPrefix?: string;
  databaseUrl: string;
  logger: Logger;
  now: () => number;
}): Promise<ClusterServices> {
  const { logger } = input;
  if (input.redisTarget === undefined) {
    const leader = /^postgres(ql)?:/.test(input.databaseUrl)
      ? startPostgresLeaderElection({ databaseUrl: input.databaseUrl, lockId: LEADER_LOCK_ID, logger })
      : alwaysLeader();
    const kv = createMemoryKv({ now: input.now });
    return services({ kv, bus: createLocalEventBus(), leader, redis: undefined, subscriber: undefined, shared: () => false, logger });
  }

  const prefix = input.redisPrefix ?? 'switchyard:';
  const redis = openRedis(input.redisTarget, { name: 'switchyard' });
  const subscriber = openRedis(input.redisTarget, { name: 'switchyard-events', subscriber: true });
  // ioredis reports connection errors as events; the failover kv logs the outage once.
  redis.on('error', () => {});
  subscriber.on('error', () => {});
  await waitForRedis(redis, 3_000);
  const kv: FailoverKv = createFailoverKv({
    redis,
    primary: createRedisKv(redis, { prefix, now: input.now, hashTags: input.redisTarget.mode === 'cluster' }),
    outageMode: input.outageMode,
    prefix,
    logger,
    now: input.now,
    replayPrefixes: ['balance:', 'spend:', 'wallet:', 'subq:'],
  });
  await kv.settled();
  // A dead instance's open holds are released by the others (kv/hold-journal.ts).
  const holds = startHoldJournal({ kv, redis, prefix, logger });
  const bus = createRedisEventBus({
    publisher: redis,
    subscriber,
    channel: `${prefix}events`,
    instanceId: randomBytes(8).toString('hex'),
    logger,
  });
  const leader = startRedisLeaderElection({ redis, key: `${prefix}leader`, logger });
  return services({
    kv: holds.kv,
    bus,
    leader,
    redis,
    subscriber,
    shared: () => kv.shared,
    onRecovered: (handler) => kv.onRecovered(handler),
    stop: () => holds.close(),
    logger,
  });
}

function services(parts: {
  kv: Kv;
  bus: EventBus;
  leader: LeaderElection;
  redis: RedisConnection | undefined;
  subscriber: RedisConnection | undefined;
  shared: () => boolean;
  onRecovered?: (handler: () => void) => void;
  /** Stops what runs beside the kv (the hold journal's heartbeat and sweeps). */
  stop?: () => void;
  logger: Logger;
}): ClusterServices {
  const { kv, bus, leader, redis, subscriber, logger } = parts;
  let closed = false;
  return {
    kv,
    bus,
    leader,
    redis,
    shared: parts.shared,
    attach(snapshot, health) {
      if (!redis) return;
      const refresh = (delayMs = 1_000) => {
        snapshot.refresh().catch((error: unknown) => {
          if (closed) return;
          // The database is down: keep serving the snapshot we have and try again, slower each time.
          logger.error({ err: error }, `snapshot reload failed; retrying in ${delayMs / 1000} s`);
          setTimeout(() => refresh(Math.min(delayMs * 2, MAX_REFRESH_RETRY_MS)), delayMs).unref();
        });
      };
      snapshot.onReloaded = () => bus.publish({ type: 'snapshot-changed' });
      health.onTransition = (transition) => void bus.publish({ type: 'circuit', ...transition });
      bus.subscribe((event: ClusterEvent) => {
        switch (event.type) {
          case 'snapshot-changed':
            refresh();
            return;
          case 'circuit':
            health.applyRemote(event);
            return;
          default: {
            const unreachable: never = event;
            return unreachable;
          }
        }
      });
      // Changes published while we could not hear them are caught up in one read: after the
      // subscription was lost, and after the shared counters were (a stall or a Sentinel/Cluster
      // failover can cost published events without closing the subscriber's connection).
      bus.onResubscribed(() => refresh());
      parts.onRecovered?.(() => refresh());
    },
    async close() {
      closed = true;
      parts.stop?.();
      await leader.stop();
      await bus.close();
      await kv.close();
      await Promise.all([redis, subscriber].map((connection) => (connection ? closeRedis(connection) : undefined)));
    },
  };
}
