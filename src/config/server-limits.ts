/**
 * Limits of the HTTP server against slow or numerous clients (a header or body sent a byte
 * at a time holds a socket and its memory for as long as the server lets it). None of them
 * cuts a long generation: they govern receiving the request, idle keep-alive sockets and
 * the number of sockets, never the time a reply or a stream takes.
 */
export interface ServerLimits {
  /** The request headers must arrive within this (SERVER_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this (SERVER_BODY_TIMEOUT_MS). */
  bodyTimeoutMs: number;
  /** An idle keep-alive socket is closed after this (SERVER_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
  /**
   * A new connection whose first byte has not arrived within this is closed
   * (SERVER_FIRST_BYTE_TIMEOUT_MS), so idle sockets cannot sit out the headers timeout.
   */
  firstByteTimeoutMs: number;
  /** Open sockets beyond this are refused at once (MAX_CONNECTIONS). */
  maxConnections: number;
  /**
   * Open sockets one peer address may hold (MAX_CONNECTIONS_PER_IP); unset means a quarter of
   * `maxConnections` (see `connectionsPerAddress`). Trusted proxies are exempt.
   */
  maxConnectionsPerIp?: number;
  /**
   * Connections the kernel may hold completed but not yet accepted (LISTEN_BACKLOG; the kernel
   * caps it at net.core.somaxconn). A full queue drops new connections' SYNs, which clients
   * retry only after 1, 3, 7 … s.
   */
  listenBacklog: number;
}

// Node's own defaults for headers and request (60 s, 300 s), stated explicitly and made
// configurable: a busy instance must not cut honest clients whose headers it has not yet read,
// and a 20 MB body over a slow link takes minutes; MAX_CONNECTIONS bounds what drip-feeders hold.
export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 60_000,
  bodyTimeoutMs: 300_000,
  // A real client writes its request as soon as it has connected; only an idle or abusive
  // socket waits longer, and each one held counts against MAX_CONNECTIONS.
  firstByteTimeoutMs: 5_000,
  // Above the 60 s idle timeout of common load balancers, so they close first.
  keepAliveTimeoutMs: 65_000,
  maxConnections: 10_000,
  // Node's default is 511: a burst of a few thousand new clients (a fleet reconnecting, a batch
  // job opening its streams) overflows it while the event loop is busy, and the dropped SYNs
  // turn into first bytes that arrive seconds late (bench/run-whole-box.ts counts them).
  listenBacklog: 4_096,
};

/** Node checks its header and request timers on this period; it bounds how late a timeout fires. */
export function connectionsCheckingIntervalMs(limits: ServerLimits): number {
  return Math.max(250, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)));
}

/**
 * The share of the connection cap one peer address may hold: one client cannot take every
 * socket and starve health checks and other tenants. A quarter by default: 2,500 of the default
 * 10,000 still lets one directly connected batch client run a thousand streams.
 */
export function connectionsPerAddress(limits: ServerLimits): number {
  return limits.maxConnectionsPerIp ?? Math.max(1, Math.ceil(limits.maxConnections / 4));
}
