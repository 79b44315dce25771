import type { FastifyInstance } from 'fastify';
import type { GatewayMetrics } from '../gateway-metrics.ts';
import { requireAdmin, type AdminAuthGuard } from './admin-routes.ts';

/** `GET /metrics` in Prometheus text format, behind the admin token (it names channels and models). */
export function registerMetricsRoutes(app: FastifyInstance, metrics: GatewayMetrics, adminTokenHash: string, guard?: AdminAuthGuard): void {
  app.get('/metrics', async (request, reply) => {
    requireAdmin(request, adminTokenHash, guard);
    const body = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).send(body);
  });
}
