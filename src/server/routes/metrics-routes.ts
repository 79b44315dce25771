import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.ts';
import { hashApiKey } from '../../store/hash-api-key.ts';
import type { GatewayMetrics } from '../gateway-metrics.ts';

/**
 * `GET /metrics` in Prometheus text format. It names channels, groups and models, so it needs a
 * credential: the read-only METRICS_TOKEN (what a Prometheus scrape config should hold: it
 * opens nothing else) or the admin token.
 */
export function registerMetricsRoutes(
  app: FastifyInstance,
  metrics: GatewayMetrics,
  credentials: { adminTokenHash: string; metricsTokenHash?: string | undefined },
): void {
  const accepted = [credentials.adminTokenHash, credentials.metricsTokenHash].filter(
    (hash): hash is string => hash !== undefined,
  );
  app.get('/metrics', async (request, reply) => {
    requireMetricsReader(request, accepted);
    const body = await metrics.scrape();
    return reply.header('content-type', metrics.registry.contentType).send(body);
  });
}

function requireMetricsReader(request: FastifyRequest, acceptedHashes: readonly string[]): void {
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
    throw new GatewayError(
      'admin_unauthorized',
      '/metrics needs "Authorization: Bearer <METRICS_TOKEN>" (a read-only scrape credential) or the admin token.',
    );
  }
}
