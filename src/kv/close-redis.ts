import type { Cluster } from 'ioredis';
import { closeOnPurpose } from './keep-reconnecting.ts';
import type { RedisConnection } from './open-redis.ts';

/**
 * Closes a connection for good, leaving no timer armed. A Cluster needs a second step: ioredis
 * re-arms its periodic slots refresh from the callback of a refresh that was in flight when
 * `disconnect()` ran (likely after a node was killed: a refresh that tries the dead node first
 * lasts up to its timeout), and that timer then refreshes every `slotsRefreshInterval` forever,
 * keeping the process alive. So wait for the refresh in flight to end, then disconnect again,
 * which clears the re-armed timer.
 */
export async function closeRedis(connection: RedisConnection): Promise<void> {
  closeOnPurpose(connection);
  connection.disconnect();
  if (!connection.isCluster) return;
  const cluster = connection as Cluster;
  // With no refresh in flight (the pool is empty after disconnect) the callback runs at once.
  await new Promise<void>((resolve) => cluster.refreshSlotsCache(() => resolve()));
  cluster.disconnect();
}
