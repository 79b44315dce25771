import type { FastifyInstance } from 'fastify';
import type { GatewayMetrics } from './gateway-metrics.ts';
import { requireBearerToken, type AdminAuthGuard } from '../admin/require-admin.ts';

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
  const accepted = [credentials.adminTokenHash, credentials.metricsTokenHash].filter((hash): hash is string => hash !== undefined);
  app.get('/metrics', async (request, reply) => {
    // The admin token is accepted here too, so failures count against the admin API's throttle.
    requireBearerToken(request, accepted, '/metrics needs "Authorization: Bearer <METRICS_TOKEN>" (a read-only scrape credential) or the admin token.', guard);
    const body = await metrics.scrape();
    return reply.header('content-type', metrics.registry.contentType).send(body);
  });
}
