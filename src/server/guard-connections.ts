import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { createIpMatcher, normalizeIp } from '../access/ip-matcher.ts';

export interface ConnectionGuardOptions {
  /** A new connection that has sent no byte after this is closed. */
  firstByteTimeoutMs: number;
  /** Open connections one peer address may hold; more are closed on accept. */
  maxPerAddress: number;
  /**
   * Peers exempt from the per-address share (TRUSTED_PROXIES): behind a proxy every connection
   * comes from the proxy, which limits each client itself (`limit_conn` in deploy/nginx.conf).
   */
  trustedProxies: readonly string[];
}

/**
 * Keeps one client from holding every socket (issue 23: 300 idle TCP connections against
 * MAX_CONNECTIONS=300 left no health check answered for a minute). Two rules, both applied
 * before a byte of HTTP is parsed:
 *
 * - a new connection must send its first byte within `firstByteTimeoutMs` (Node's headers
 *   timeout only starts cutting after 60 s, and a connection that sends nothing at all waits
 *   that long too);
 * - one peer address may hold at most `maxPerAddress` open connections, so a single client can
 *   take a share of MAX_CONNECTIONS, never all of it.
 *
 * Keep-alive sockets between requests are not affected: they already sent their request bytes,
 * and the keep-alive timeout governs them.
 */
export function guardConnections(server: Server, options: ConnectionGuardOptions): void {
  const trusted = createIpMatcher(options.trustedProxies);
  const open = new Map<string, number>();

  const release = (address: string) => {
    const left = (open.get(address) ?? 1) - 1;
    if (left <= 0) open.delete(address);
    else open.set(address, left);
  };

  server.on('connection', (socket: Socket) => {
    const address = normalizeIp(socket.remoteAddress ?? '');
    if (options.trustedProxies.length === 0 || !trusted(address)) {
      const held = open.get(address) ?? 0;
      if (held >= options.maxPerAddress) {
        socket.destroy();
        return;
      }
      open.set(address, held + 1);
      socket.once('close', () => release(address));
    }
    const timer = setTimeout(() => {
      // Checked after this loop turn's I/O: on a loaded event loop the timer can fire before
      // the poll phase reads bytes that arrived in time, and an honest client must not pay.
      setImmediate(() => {
        if (socket.bytesRead === 0) socket.destroy();
      });
    }, options.firstByteTimeoutMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
