import type { FastifyInstance } from 'fastify';
import { ADMIN_TOKEN_HASH_SETTING, claimAdminToken } from '../access/admin-token.ts';
import { createReadiness, type Readiness } from '../cluster/readiness.ts';
import { DEFAULT_RESPONSES_WEBSOCKET } from '../config/responses-websocket-settings.ts';
import { DEFAULT_SERVER_LIMITS } from '../config/server-limits.ts';
import { createCompactionSeal } from '../responses/compaction-seal.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import { createApp } from '../server/create-app.ts';
import { registerReadinessRoute } from '../server/observability/health-routes.ts';
import { hashApiKey } from '../access/hash-api-key.ts';
import type { GatewayServices } from './build-gateway-services.ts';
import type { GatewayState } from './open-gateway-state.ts';

/** The Fastify app over the services and the relay, with readiness, draining and the generated token's claim. */
export function buildGatewayApp(state: GatewayState, services: GatewayServices, relay: RelayDeps): { app: FastifyInstance; readiness: Readiness } {
  const { options, store, snapshot } = state;
  const app = createApp({
    settings: {
      bodyLimitBytes: options.bodyLimitBytes,
      altPrefix: options.altPrefix,
      adminTokenHash: state.adminTokenHash,
      limits: { ...DEFAULT_SERVER_LIMITS, ...options.serverLimits },
      trustedProxies: options.trustedProxies ?? [],
      revealOtherGroupModels: options.revealOtherGroupModels ?? false,
      blockPrivateUpstreams: options.blockPrivateUpstreams ?? false,
      metricsTokenHash: options.metricsToken ? hashApiKey(options.metricsToken) : undefined,
      publicUrl: options.publicUrl,
      responsesWebSocket: { ...DEFAULT_RESPONSES_WEBSOCKET, ...options.responsesWebSocket },
    },
    store,
    snapshot,
    usageWriter: services.usageWriter,
    keepLedger: true,
    reconciliation: services.reconciliation,
    access: services.access,
    relay,
    metrics: services.metrics,
    runtime: state.runtime,
    logger: state.logger,
    responses: services.responses,
    notifications: services.notifications,
    compaction: createCompactionSeal(state.secretKey),
    ...(services.affinity ? { affinity: services.affinity } : {}),
  });
  const readiness = createReadiness({
    pingStore: () => store.settings.get(ADMIN_TOKEN_HASH_SETTING),
    pingRedis: state.cluster.redis ? () => (state.cluster.redis as NonNullable<typeof state.cluster.redis>).ping() : undefined,
    snapshotLoaded: () => snapshot.current !== undefined,
  });
  registerReadinessRoute(app, readiness);
  if (state.generatedAdminToken) claimGeneratedTokenOnFirstUse(app, state);
  return { app, readiness };
}

/**
 * The first request that authenticates with the generated token claims it: it is not shown at
 * later starts. Awaited so a restart right after the first use cannot show it again.
 */
function claimGeneratedTokenOnFirstUse(app: FastifyInstance, state: GatewayState): void {
  let claimed = false;
  app.addHook('onRequest', async (request) => {
    if (claimed) return;
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ') || hashApiKey(header.slice(7).trim()) !== state.adminTokenHash) return;
    claimed = true;
    await claimAdminToken(state.store);
  });
}
