import { availableParallelism } from 'node:os';
import { ConfigError } from './config-error.ts';
import type { Config } from './config-schema.ts';
import { envSchema } from './config-schema.ts';
import { outageModeFrom, redisTargetFrom } from './redis-env.ts';

/**
 * Reads the configuration from `env` (nothing else), applying defaults. Throws ConfigError
 * listing every invalid variable at once, so one restart fixes them all.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError('Invalid configuration in the environment:', problems);
  }
  const values = result.data;
  const redis = redisTargetFrom(values);
  if (redis.problems.length > 0) throw new ConfigError('Invalid configuration in the environment:', redis.problems);
  return {
    port: values.PORT,
    host: values.HOST ?? '127.0.0.1',
    databaseUrl: values.DATABASE_URL ?? 'sqlite:./data/switchyard.db',
    redisUrl: values.REDIS_URL,
    redisTarget: redis.target,
    redisOutageMode: outageModeFrom(values),
    database: {
      poolSize: values.DATABASE_POOL_SIZE,
      statementTimeoutMs: values.DATABASE_STATEMENT_TIMEOUT_MS,
      replicaUrl: values.DATABASE_REPLICA_URL,
    },
    redisKeyPrefix: values.REDIS_KEY_PREFIX ?? 'switchyard:',
    adminToken: values.GATEWAY_ADMIN_TOKEN,
    gatewaySecret: values.GATEWAY_SECRET,
    metricsToken: values.METRICS_TOKEN,
    publicUrl: values.PUBLIC_URL?.replace(/\/$/, ''),
    configFile: values.GATEWAY_CONFIG,
    // Unset: every CPU in production when Redis shares the state between workers; otherwise one
    // worker (the embedded default must serve anywhere; the start banner says how to use every core).
    workers: values.WORKERS !== 0 ? values.WORKERS : env.NODE_ENV === 'production' && redis.target !== undefined ? availableParallelism() : 1,
    drainTimeoutMs: values.DRAIN_TIMEOUT_MS,
    logLevel: values.LOG_LEVEL,
    bodyLimitBytes: values.BODY_LIMIT_BYTES,
    streamIdleTimeoutMs: values.STREAM_IDLE_TIMEOUT_MS,
    upstreamConnectTimeoutMs: values.UPSTREAM_CONNECT_TIMEOUT_MS,
    upstreamFirstByteTimeoutMs: values.UPSTREAM_FIRST_BYTE_TIMEOUT_MS,
    upstreamTotalTimeoutMs: values.UPSTREAM_TOTAL_TIMEOUT_MS,
    firstByteDeadline: {
      minMs: values.FIRST_BYTE_DEADLINE_MIN_MS,
      // A ceiling below the floor would make the floor meaningless: the floor wins.
      maxMs: Math.max(values.FIRST_BYTE_DEADLINE_MIN_MS, values.FIRST_BYTE_DEADLINE_MAX_MS),
      coldMs: values.FIRST_BYTE_DEADLINE_COLD_MS,
      hedge: values.HEDGE_STREAMS,
      maxBodyChars: values.FIRST_BYTE_DEADLINE_MAX_BODY_CHARS,
    },
    altPrefix: values.ALT_PREFIX ?? 'antigravity',
    trustedProxies: values.TRUSTED_PROXIES,
    clientIpHeader: values.CLIENT_IP_HEADER,
    server: {
      headersTimeoutMs: values.SERVER_HEADERS_TIMEOUT_MS,
      bodyTimeoutMs: values.SERVER_BODY_TIMEOUT_MS,
      keepAliveTimeoutMs: values.SERVER_KEEP_ALIVE_TIMEOUT_MS,
      firstByteTimeoutMs: values.SERVER_FIRST_BYTE_TIMEOUT_MS,
      maxConnections: values.MAX_CONNECTIONS,
      ...(values.MAX_CONNECTIONS_PER_IP === 0 ? {} : { maxConnectionsPerIp: values.MAX_CONNECTIONS_PER_IP }),
      listenBacklog: values.LISTEN_BACKLOG,
    },
    revealOtherGroupModels: values.REVEAL_OTHER_GROUP_MODELS,
    blockPrivateUpstreams: values.BLOCK_PRIVATE_UPSTREAMS,
    logRetentionDays: values.LOG_RETENTION_DAYS,
    ledgerRetentionDays: values.LEDGER_RETENTION_DAYS,
    strictPricing: values.STRICT_PRICING,
    reservedOutputTokens: values.RESERVE_OUTPUT_TOKENS,
    replyLimits: { maxEventBytes: values.MAX_UPSTREAM_EVENT_BYTES, maxReplyBytes: values.MAX_UPSTREAM_REPLY_BYTES },
    responsesRetentionHours: values.RESPONSES_RETENTION_HOURS,
    responsesMaxTurnBytes: values.RESPONSES_MAX_TURN_BYTES,
    responsesMaxChainBytes: values.RESPONSES_MAX_CHAIN_BYTES,
    responsesMaxKeyBytes: values.RESPONSES_MAX_KEY_BYTES,
    affinityTtlSeconds: values.AFFINITY_TTL_SECONDS,
    responsesWebSocket: { enabled: values.RESPONSES_WEBSOCKET, maxPerKey: values.RESPONSES_WEBSOCKET_MAX_PER_KEY },
  };
}
