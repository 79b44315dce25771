import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { ADMIN_TOKEN_HASH_SETTING, claimAdminToken, resolveAdminToken } from './admin-token.ts';
import { hashApiKey } from './store/hash-api-key.ts';
import { createSecretBox } from './store/secret-box.ts';
import { createAccessServices } from './access/access-services.ts';
import { loadSpendBaseline } from './billing/load-spend-baseline.ts';
import { startUsagePruner } from './billing/usage-pruner.ts';
import type { RuntimeContext } from './core/runtime-context.ts';
import type { Kv } from './kv/kv.ts';
import { createReadiness } from './cluster/readiness.ts';
import { startClusterServices } from './cluster/start-cluster-services.ts';
import { registerReadinessRoute } from './server/routes/health-routes.ts';
import { createRuntime } from './create-runtime.ts';
import { createApp } from './server/create-app.ts';
import { DEFAULT_RESPONSES_WEBSOCKET, type ResponsesWebSocketSettings } from './config/responses-websocket-settings.ts';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from './config/server-limits.ts';
import type { ClientIpHeader } from './access/resolve-client-ip.ts';
import { DEFAULT_AUTH_THROTTLE, type AuthThrottleOptions } from './access/auth-failure-throttle.ts';
import { GatewayMetrics } from './server/gateway-metrics.ts';
import { MeteredUsageWriter } from './server/metered-usage-writer.ts';
import { probeChannel } from './relay/probe-channel.ts';
import { startHealthChecker } from './routing/health-checker.ts';
import type { RelayDeps } from './relay/relay-deps.ts';
import type { StreamGauge } from './relay/stream-gauge.ts';
import { ChannelHealth } from './routing/channel-health.ts';
import { logCircuitTransitions } from './routing/log-circuit-transitions.ts';
import { DEFAULT_CIRCUIT_OPTIONS, type CircuitOptions } from './routing/circuit-breaker.ts';
import { SnapshotHolder } from './snapshot/snapshot-holder.ts';
import { createStore } from './store/create-store.ts';
import { loadGatewaySecret } from './store/load-gateway-secret.ts';
import { createEnvelopeSealer } from './reasoning/reasoning-envelope.ts';
import { createReasoningCache } from './reasoning/reasoning-cache.ts';
import { createCompactionSeal } from './responses/compaction-seal.ts';
import { startHourlyPruner } from './store/start-hourly-pruner.ts';
import { startStoredResponsePruner } from './responses/stored-response-pruner.ts';
import {
  DEFAULT_RESPONSES_MAX_CHAIN_TURNS,
  DEFAULT_RESPONSES_MAX_TURN_BYTES,
  DEFAULT_RESPONSES_MAX_CHAIN_BYTES,
  DEFAULT_RESPONSES_MAX_KEY_BYTES,
  DEFAULT_RESPONSES_RETENTION_HOURS,
  type StatefulResponses,
} from './responses/stateful-responses.ts';
import type { Store } from './store/store.ts';
import { UpstreamClient } from './upstream/upstream-client.ts';
import { ConversationAffinity, DEFAULT_AFFINITY_TTL_SECONDS } from './routing/conversation-affinity.ts';
import { DEFAULT_DEADLINE_MAX_BODY_CHARS, FirstByteDeadlines, type FirstByteDeadlineOptions } from './routing/first-byte-deadline.ts';
import { DEFAULT_REPLY_LIMITS, type ReplyLimits } from './relay/reply-limits.ts';
import { StoredBytesQuota } from './responses/stored-bytes-quota.ts';

const APPLIED_BATCH_RETENTION_MS = 7 * 86_400_000;

export interface GatewayOptions {
  port: number;
  host: string;
  databaseUrl: string;
  adminToken?: string | undefined;
  /** METRICS_TOKEN: a read-only Bearer credential for GET /metrics. */
  metricsToken?: string | undefined;
  gatewaySecret?: string | undefined;
  bodyLimitBytes: number;
  altPrefix: string;
  upstream: { connectMs: number; firstByteMs: number; idleMs: number; totalMs?: number };
  /** Keep-alive frames to streaming clients after this much upstream silence (default 15 s). */
  keepAliveMs?: number;
  /** MAX_UPSTREAM_EVENT_BYTES, MAX_UPSTREAM_REPLY_BYTES: bounds on one upstream event and one whole reply. */
  replyLimits?: ReplyLimits;
  /** How often open circuits are probed to bring channels back (default 30 s). */
  healthCheckIntervalMs?: number;
  /** Circuit breaker tuning (window, threshold, cool-downs); defaults suit production. */
  circuit?: Partial<CircuitOptions>;
  maxAttempts: number;
  retryStatuses: readonly number[];
  /**
   * First-byte deadline of streamed attempts and hedging (see RelayDeps.firstByte); defaults:
   * 2 s to 20 s from the observed times, 3 s until known, hedging on. `false` turns it off.
   */
  firstByteDeadline?: (Partial<FirstByteDeadlineOptions> & { hedge?: boolean; maxBodyChars?: number }) | false;
  /** Applied to the store after migrations, before serving (the declarative config file). */
  applyConfig?: ((store: Store) => Promise<void>) | undefined;
  logger?: Logger;
  runtime?: RuntimeContext;
  /** IPs/CIDRs whose X-Forwarded-For/Forwarded is believed (TRUSTED_PROXIES); default none. */
  trustedProxies?: readonly string[];
  /** The one header read for the client address behind a trusted proxy (CLIENT_IP_HEADER); default x-forwarded-for. */
  clientIpHeader?: ClientIpHeader;
  /** HTTP server timeouts and connection cap; defaults in DEFAULT_SERVER_LIMITS. */
  serverLimits?: Partial<ServerLimits>;
  /** Failed admin-token attempts allowed per address and window; default 10 a minute. */
  adminAuthThrottle?: Partial<AuthThrottleOptions>;
  /** REVEAL_OTHER_GROUP_MODELS; default false. */
  revealOtherGroupModels?: boolean;
  /** BLOCK_PRIVATE_UPSTREAMS: refuse private, loopback and link-local channel addresses (save and connect); default false. */
  blockPrivateUpstreams?: boolean;
  /** Refuse unpriced models (STRICT_PRICING); default false. */
  strictPricing?: boolean;
  /** RESERVE_OUTPUT_TOKENS: output held for an uncapped request to a model of unknown maximum. */
  reservedOutputTokens?: number;
  /** LOG_RETENTION_DAYS; default 30, 0 keeps logs forever. */
  logRetentionDays?: number;
  /** RESPONSES_RETENTION_HOURS: stateful Responses turns are kept this long; default 720 (30 days, as OpenAI). */
  responsesRetentionHours?: number;
  /** RESPONSES_MAX_TURN_BYTES: a larger turn is not kept (warning); default 4 MiB. */
  responsesMaxTurnBytes?: number;
  /** RESPONSES_MAX_CHAIN_BYTES: a conversation whose kept turns are larger is not continued (429); default 16 MiB. */
  responsesMaxChainBytes?: number;
  /** RESPONSES_MAX_KEY_BYTES: a key whose kept turns reach this keeps no more (429 with store on); default 256 MiB. */
  responsesMaxKeyBytes?: number;
  /** AFFINITY_TTL_SECONDS: conversation affinity lasts this long after a conversation's last turn; default 3600, 0 turns it off. */
  affinityTtlSeconds?: number;
  /** Shared counters; default Redis when `redisUrl` is set, else one in memory. */
  kv?: Kv;
  /** REDIS_URL: shared counters, pub/sub invalidation, shared circuits and the leader lock. */
  redisUrl?: string | undefined;
  /** Prepended to every Redis key and channel (REDIS_KEY_PREFIX; default `switchyard:`). */
  redisPrefix?: string;
  /** RESPONSES_WEBSOCKET, RESPONSES_WEBSOCKET_MAX_PER_KEY and the socket timers; defaults in DEFAULT_RESPONSES_WEBSOCKET. */
  responsesWebSocket?: Partial<ResponsesWebSocketSettings>;
}

export interface RunningGateway {
  url: string;
  store: Store;
  /**
   * A generated admin token nobody has used yet (this start's, or an earlier start's that was
   * never used): the caller shows it once the gateway listens. Undefined with GATEWAY_ADMIN_TOKEN.
   */
  generatedAdminToken: string | undefined;
  /** Scale-out state, for operators' logs and the tests. */
  cluster: {
    /** Whether counters are shared through Redis right now (false without Redis or during an outage). */
    shared(): boolean;
    /** Whether this instance runs the leader work (health checks, log pruning). */
    leader(): boolean;
    /** The counters this instance uses. */
    kv: Kv;
  };
  /** Stops accepting new work: /readyz answers 503 from now on. `close()` also does it. */
  drain(): void;
  /** Drains, waits for open requests and streams to finish, then closes everything. */
  close(): Promise<void>;
}

/**
 * Opens the store, loads the in-memory snapshot, builds the app and listens. Used by `main.ts`
 * and by the end-to-end tests, so the tests run the gateway exactly as users do.
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const logger = options.logger ?? pino({ level: 'info' });
  const runtime = options.runtime ?? createRuntime();
  const secretKey = loadGatewaySecret({ databaseUrl: options.databaseUrl, gatewaySecret: options.gatewaySecret });
  const store = await createStore({ databaseUrl: options.databaseUrl, secretKey });
  await options.applyConfig?.(store);

  const { adminTokenHash, pendingAdminToken: generatedAdminToken } = await resolveAdminToken(
    store,
    options.adminToken,
    createSecretBox(secretKey),
  );
  const snapshot = await SnapshotHolder.load(store, runtime.now);
  const upstream = new UpstreamClient(options.upstream, options.blockPrivateUpstreams ?? false);
  const usageWriter = new MeteredUsageWriter(store.usage, logger);
  const cluster = await startClusterServices({
    redisUrl: options.redisUrl,
    redisPrefix: options.redisPrefix,
    databaseUrl: options.databaseUrl,
    logger,
    now: runtime.now,
  });
  const kv = options.kv ?? cluster.kv;
  const totalTimeoutMs = options.upstream.totalMs ?? 600_000;
  const access = createAccessServices({
    kv,
    slotLeaseMs: totalTimeoutMs + 60_000,
    store,
    snapshot,
    now: runtime.now,
    logger,
    trustedProxies: options.trustedProxies ?? [],
    clientIpHeader: options.clientIpHeader ?? 'x-forwarded-for',
    adminAuthThrottle: { ...DEFAULT_AUTH_THROTTLE, ...options.adminAuthThrottle },
    strictPricing: options.strictPricing ?? false,
    ...(options.reservedOutputTokens === undefined ? {} : { reservedOutputTokens: options.reservedOutputTokens }),
    spendBaseline: await loadSpendBaseline(store.usage, runtime.now()),
  });
  const leader = () => cluster.leader.isLeader();
  const pruner = startUsagePruner({
    usage: store.usage,
    retentionDays: options.logRetentionDays ?? 30,
    now: runtime.now,
    logger,
    isLeader: leader,
  });
  const responses: StatefulResponses = {
    repository: store.responses,
    retentionMs: (options.responsesRetentionHours ?? DEFAULT_RESPONSES_RETENTION_HOURS) * 3_600_000,
    maxTurnBytes: options.responsesMaxTurnBytes ?? DEFAULT_RESPONSES_MAX_TURN_BYTES,
    maxChainTurns: DEFAULT_RESPONSES_MAX_CHAIN_TURNS,
    maxChainBytes: options.responsesMaxChainBytes ?? DEFAULT_RESPONSES_MAX_CHAIN_BYTES,
    keyBytes: new StoredBytesQuota(store.responses, options.responsesMaxKeyBytes ?? DEFAULT_RESPONSES_MAX_KEY_BYTES, runtime.now),
  };
  const responsesPruner = startStoredResponsePruner({ repository: store.responses, now: runtime.now, logger, isLeader: leader });
  // A charge batch can only be retried while the process that wrote it still runs; a week is ample.
  const appliedBatchPruner = startHourlyPruner({
    what: 'applied charge-batch ids',
    prune: () => store.appliedBatches.pruneBefore(runtime.now() - APPLIED_BATCH_RETENTION_MS),
    logger,
    isLeader: leader,
  });
  const affinityTtlMs = (options.affinityTtlSeconds ?? DEFAULT_AFFINITY_TTL_SECONDS) * 1000;
  const health = new ChannelHealth(runtime.now, { ...DEFAULT_CIRCUIT_OPTIONS, ...options.circuit });
  cluster.attach(snapshot, health);
  logCircuitTransitions(health, snapshot, logger);
  const streams: StreamGauge = { open: 0 };
  const relay: RelayDeps = {
    upstream,
    runtime,
    logger,
    health,
    streams,
    retryStatuses: new Set(options.retryStatuses),
    maxAttempts: options.maxAttempts,
    totalTimeoutMs,
    maxRetryWaitMs: 3_000,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    replyLimits: options.replyLimits ?? DEFAULT_REPLY_LIMITS,
    reasoning: { sealer: createEnvelopeSealer(secretKey), cache: createReasoningCache({ kv, logger }) },
    ...(options.firstByteDeadline === false ? {} : { firstByte: firstByteDeadlines(options.firstByteDeadline) }),
  };
  const metrics = new GatewayMetrics({ streams, health, snapshot });
  usageWriter.metrics = metrics;
  usageWriter.accessLogger = logger;
  metrics.beforeScrape = () => usageWriter.observeQueued();
  const healthChecker = startHealthChecker({
    intervalMs: options.healthCheckIntervalMs ?? 30_000,
    probe: (channel, model) => probeChannel(relay, channel, model),
    channels: () => snapshot.current.channels.values(),
    health,
    logger,
    now: runtime.now,
    isLeader: leader,
  });
  const readiness = createReadiness({
    pingStore: () => store.settings.get(ADMIN_TOKEN_HASH_SETTING),
    pingRedis: cluster.redis ? () => (cluster.redis as NonNullable<typeof cluster.redis>).ping() : undefined,
    snapshotLoaded: () => snapshot.current !== undefined,
  });
  const app = createApp({
    settings: {
      bodyLimitBytes: options.bodyLimitBytes,
      altPrefix: options.altPrefix,
      adminTokenHash,
      limits: { ...DEFAULT_SERVER_LIMITS, ...options.serverLimits },
      trustedProxies: options.trustedProxies ?? [],
      revealOtherGroupModels: options.revealOtherGroupModels ?? false,
      blockPrivateUpstreams: options.blockPrivateUpstreams ?? false,
      metricsTokenHash: options.metricsToken ? hashApiKey(options.metricsToken) : undefined,
      responsesWebSocket: { ...DEFAULT_RESPONSES_WEBSOCKET, ...options.responsesWebSocket },
    },
    store,
    snapshot,
    usageWriter,
    access,
    relay,
    metrics,
    runtime,
    logger,
    responses,
    compaction: createCompactionSeal(secretKey),
    ...(affinityTtlMs > 0 ? { affinity: new ConversationAffinity(kv, affinityTtlMs) } : {}),
  });
  registerReadinessRoute(app, readiness);
  // While draining, keep-alive connections are let go after their response: a client's next
  // request goes (through the load balancer) to an instance that stays, and close() does not
  // wait out keepAliveTimeout for connections that went idle after it began.
  app.addHook('onSend', async (_request, reply) => {
    if (readiness.draining) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async () => {
    if (readiness.draining) setImmediate(() => app.server.closeIdleConnections());
  });
  if (generatedAdminToken) {
    // The first request that authenticates with the generated token claims it: it is not shown
    // at later starts. Awaited so a restart right after the first use cannot show it again.
    let claimed = false;
    app.addHook('onRequest', async (request) => {
      if (claimed) return;
      const header = request.headers.authorization;
      if (!header?.startsWith('Bearer ') || hashApiKey(header.slice(7).trim()) !== adminTokenHash) return;
      claimed = true;
      await claimAdminToken(store);
    });
  }
  await app.listen({ port: options.port, host: options.host, backlog: options.serverLimits?.listenBacklog ?? DEFAULT_SERVER_LIMITS.listenBacklog });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    store,
    generatedAdminToken,
    cluster: { shared: () => cluster.shared(), leader, kv },
    drain: () => readiness.startDraining(),
    close() {
      closing ??= (async () => {
        readiness.startDraining();
        healthChecker.stop();
        // Idle keep-alive connections are closed at once; open requests and streams finish.
        await app.close();
        pruner.stop();
        responsesPruner.stop();
        appliedBatchPruner.stop();
        await usageWriter.close();
        await access.close();
        await cluster.close();
        await upstream.close();
        await store.close();
      })();
      return closing;
    },
  };
}

function firstByteDeadlines(options: Partial<FirstByteDeadlineOptions> & { hedge?: boolean; maxBodyChars?: number } = {}): NonNullable<RelayDeps['firstByte']> {
  const { hedge = true, maxBodyChars = DEFAULT_DEADLINE_MAX_BODY_CHARS, ...deadline } = options;
  return { deadlines: new FirstByteDeadlines(deadline), hedge, maxBodyChars };
}
