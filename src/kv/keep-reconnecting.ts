import type { Redis } from 'ioredis';

/** Connections being closed by the gateway itself: their end is final. */
const closedOnPurpose = new WeakSet<object>();

/** Says the coming end of `connection` is wanted (shutdown): it is not restarted. */
export function closeOnPurpose(connection: object): void {
  closedOnPurpose.add(connection);
}

/**
 * Restarts a connection that ioredis gave up on, `delayMs` after it ended, until it is closed on
 * purpose. ioredis ends a Sentinel connection for good (status `end`, no more reconnection, so
 * no 'ready' event ever again) when a failover notice (+switch-master, `failoverDetector`)
 * arrives while it is asking a sentinel for the primary: the detector of the connection that was
 * lost still listens and disconnects the connector, and the pending connect then fails with
 * "Connection is closed." and ends the client. The window is the time a sentinel takes to answer,
 * so under CPU load one instance in a few stayed on its fallback counters after a failover.
 */
export function keepReconnecting(connection: Redis, delayMs = 200): void {
  connection.on('end', () => {
    if (closedOnPurpose.has(connection)) return;
    setTimeout(() => {
      if (connection.status === 'end' && !closedOnPurpose.has(connection)) connection.connect().catch(() => undefined);
    }, delayMs).unref();
  });
}
