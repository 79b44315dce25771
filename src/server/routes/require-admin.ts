import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AuthFailureThrottle } from '../../access/auth-failure-throttle.ts';
import type { ClientIpResolver } from '../../access/resolve-client-ip.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import { hashApiKey } from '../../store/hash-api-key.ts';

/** What the admin check needs to throttle failed attempts per client address. */
export interface AdminAuthGuard {
  adminAuthThrottle: AuthFailureThrottle;
  clientIp: ClientIpResolver;
}

export function requireAdmin(request: FastifyRequest, expectedHash: string, guard?: AdminAuthGuard): void {
  requireBearerToken(
    request,
    [expectedHash],
    'The admin API needs the gateway admin token as "Authorization: Bearer <GATEWAY_ADMIN_TOKEN>"; it was printed when the gateway first started.',
    guard,
  );
}

/**
 * A Bearer token whose hash is one of `acceptedHashes`, compared in constant time. Every caller
 * that accepts the admin token goes through here, so its failures share one throttle per address
 * (while an address is blocked even the right token gets 429, so the throttle never confirms a guess).
 */
export function requireBearerToken(
  request: FastifyRequest,
  acceptedHashes: readonly string[],
  unauthorizedMessage: string,
  guard?: AdminAuthGuard,
): void {
  const address = guard ? guard.clientIp(request.socket.remoteAddress, request.headers) : '';
  const waitSeconds = guard ? guard.adminAuthThrottle.blockedFor(address) : 0;
  if (waitSeconds > 0) {
    throw new GatewayError('rate_limited', `Too many failed admin sign-in attempts from ${address}; try again in ${waitSeconds} s.`, {
      retryAfterSeconds: waitSeconds,
    });
  }
  const header = request.headers.authorization;
  const token = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim())?.[1] : undefined;
  const given = Buffer.from(hashApiKey(token ?? ''), 'hex');
  const accepted =
    token !== undefined &&
    acceptedHashes.some((hash) => {
      const expected = Buffer.from(hash, 'hex');
      return expected.length === given.length && timingSafeEqual(given, expected);
    });
  if (!accepted) {
    guard?.adminAuthThrottle.recordFailure(address);
    throw new GatewayError('admin_unauthorized', unauthorizedMessage);
  }
}
