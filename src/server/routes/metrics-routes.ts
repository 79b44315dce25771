import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.ts';
import { hashApiKey } from '../../store/hash-api-key.ts';
import type { GatewayMetrics } from '../gateway-metrics.ts';
import type { AdminAuthGuard } from './admin-routes.ts';

/**
 * `GET /metrics` in Prometheus text format. It names channels, groups and models, so it needs a
 * credential: the read-only METRICS_TOKEN (what a Prometheus scrape config should hold: it
 * opens nothing else) or the admin token.
 */
export function registerMetricsRoutes(
  app: FastifyInstance,
  metrics: GatewayMetrics,
  credentials: { adminTokenHash: string; metricsTokenHash?: string | undefined },
  guard?: AdminAuthGuard,
): void {
  const accepted = [credentials.adminTokenHash, credentials.metricsTokenHash].filter(
    (hash): hash is string => hash !== undefined,
  );
  app.get('/metrics', async (request, reply) => {
    requireMetricsReader(request, accepted, guard);
    const body = await metrics.scrape();
    return reply.header('content-type', metrics.registry.contentType).send(body);
  });
}

function requireMetricsReader(request: FastifyRequest, acceptedHashes: readonly string[], guard?: AdminAuthGuard): void {
  // The admin token is accepted here too, so failures count against the same throttle as the admin API.
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
  const ok =
    token !== undefined &&
    acceptedHashes.some((hash) => {
      const expected = Buffer.from(hash, 'hex');
      return expected.length === given.length && timingSafeEqual(given, expected);
    });
  if (!ok) {
    guard?.adminAuthThrottle.recordFailure(address);
    throw new GatewayError(
      'admin_unauthorized',
      '/metrics needs "Authorization: Bearer <METRICS_TOKEN>" (a read-only scrape credential) or the admin token.',
    );
  }
}
