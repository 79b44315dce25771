import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AuthFailureThrottle } from '../../access/auth-failure-throttle.ts';
import type { ClientIpResolver } from '../../access/resolve-client-ip.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import { hashApiKey } from '../../access/hash-api-key.ts';

/** What the admin check needs to throttle failed attempts per client address. */
export interface AdminAuthGuard {
  adminAuthThrottle: AuthFailureThrottle;
  clientIp: ClientIpResolver;
}

/**
 * A Bearer token whose hash is one of `acceptedHashes`, compared in constant time. Every caller
 * that accepts the admin token goes through here, so its failures share one throttle per address
 * (while an address is blocked even the right token gets 429, so the throttle never confirms a guess).
 * The admin API itself authenticates in `authorize-admin.ts` with the same pieces.
 */
export function requireBearerToken(request: FastifyRequest, acceptedHashes: readonly string[], unauthorizedMessage: string, guard?: AdminAuthGuard): void {
  const address = refuseWhileBlocked(request, guard);
  if (!bearerMatches(bearerTokenOf(request), acceptedHashes)) {
    guard?.adminAuthThrottle.recordFailure(address);
    throw new GatewayError('admin_unauthorized', unauthorizedMessage);
  }
}

/** 429 while this address has failed too often; otherwise the address, for recording a failure. */
export function refuseWhileBlocked(request: FastifyRequest, guard: AdminAuthGuard | undefined): string {
  const address = guard ? guard.clientIp(request.socket.remoteAddress, request.headers) : '';
  const waitSeconds = guard ? guard.adminAuthThrottle.blockedFor(address) : 0;
  if (waitSeconds > 0) {
    throw new GatewayError('rate_limited', `Too many failed admin sign-in attempts from ${address}; try again in ${waitSeconds} s.`, {
      retryAfterSeconds: waitSeconds,
    });
  }
  return address;
}

/** The token of an `Authorization: Bearer …` header, if the request has one. */
export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim())?.[1] : undefined;
}

/** Whether the token's hash is one of `acceptedHashes`, compared in constant time. */
export function bearerMatches(token: string | undefined, acceptedHashes: readonly string[]): boolean {
  const given = Buffer.from(hashApiKey(token ?? ''), 'hex');
  return (
    token !== undefined &&
    acceptedHashes.some((hash) => {
      const expected = Buffer.from(hash, 'hex');
      return expected.length === given.length && timingSafeEqual(given, expected);
    })
  );
}
