import type { Logger } from 'pino';
import type { Config } from '../config/config-schema.ts';
import type { Store } from '../store/store.ts';
import type { GatewayOptions } from './gateway-options.ts';

/** The environment's settings (`loadConfig`) as one gateway's options. */
export function gatewayOptionsFrom(config: Config, logger: Logger, applyConfig: ((store: Store) => Promise<void>) | undefined): GatewayOptions {
  return {
    port: config.port,
    host: config.host,
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    redisTarget: config.redisTarget,
    redisOutageMode: config.redisOutageMode,
    database: config.database,
    redisPrefix: config.redisKeyPrefix,
    adminToken: config.adminToken,
    gatewaySecret: config.gatewaySecret,
    metricsToken: config.metricsToken,
    publicUrl: config.publicUrl,
    bodyLimitBytes: config.bodyLimitBytes,
    altPrefix: config.altPrefix,
    upstream: {
      connectMs: config.upstreamConnectTimeoutMs,
      firstByteMs: config.upstreamFirstByteTimeoutMs,
      idleMs: config.streamIdleTimeoutMs,
      totalMs: config.upstreamTotalTimeoutMs,
    },
    firstByteDeadline: config.firstByteDeadline,
    trustedProxies: config.trustedProxies,
    clientIpHeader: config.clientIpHeader,
    serverLimits: config.server,
    revealOtherGroupModels: config.revealOtherGroupModels,
    blockPrivateUpstreams: config.blockPrivateUpstreams,
    strictPricing: config.strictPricing,
    reservedOutputTokens: config.reservedOutputTokens,
    replyLimits: config.replyLimits,
    logRetentionDays: config.logRetentionDays,
    ledgerRetentionDays: config.ledgerRetentionDays,
    responsesRetentionHours: config.responsesRetentionHours,
    responsesMaxTurnBytes: config.responsesMaxTurnBytes,
    responsesMaxChainBytes: config.responsesMaxChainBytes,
    responsesMaxKeyBytes: config.responsesMaxKeyBytes,
    affinityTtlSeconds: config.affinityTtlSeconds,
    responsesWebSocket: config.responsesWebSocket,
    maxAttempts: 3,
    retryStatuses: [408, 429, 500, 502, 503, 504, 529],
    applyConfig,
    logger,
  };
}
