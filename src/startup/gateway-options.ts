import type { Mailer } from '../notify/send-notification.ts';
import type { NotificationServices } from '../notify/start-notifications.ts';
import type { Logger } from 'pino';
import type { AuthThrottleOptions } from '../access/auth-failure-throttle.ts';
import type { ClientIpHeader } from '../access/resolve-client-ip.ts';
import type { ResponsesWebSocketSettings } from '../config/responses-websocket-settings.ts';
import type { ServerLimits } from '../config/server-limits.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { RedisOutageMode } from '../kv/kv-outage.ts';
import type { RedisTarget } from '../kv/redis-target.ts';
import type { DatabaseSettings } from '../store/parse-database-url.ts';
import type { Kv } from '../kv/kv.ts';
import type { ReplyLimits } from '../relay/reply-limits.ts';
import type { CircuitOptions } from '../relay/routing/circuit-breaker.ts';
import type { FirstByteDeadlineOptions } from '../relay/routing/first-byte-deadline.ts';
import type { Store } from '../store/store.ts';

export interface GatewayOptions {
  port: number;
  host: string;
  databaseUrl: string;
  adminToken?: string | undefined;
  /** METRICS_TOKEN: a read-only Bearer credential for GET /metrics. */
  metricsToken?: string | undefined;
  /** PUBLIC_URL: the origin e-mailed links and OIDC callbacks use; unset, self sign-up and OIDC cannot send people anywhere. */
  publicUrl?: string | undefined;
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
  /** Refuse unpriced models (STRICT_PRICING); default true (an unpriced model is never silently free). */
  strictPricing?: boolean;
  /** RESERVE_OUTPUT_TOKENS: output held for an uncapped request to a model of unknown maximum. */
  reservedOutputTokens?: number;
  /** LOG_RETENTION_DAYS; default 30, 0 keeps logs forever. */
  logRetentionDays?: number;
  /** LEDGER_RETENTION_DAYS; default 400, 0 keeps the ledger forever. */
  ledgerRetentionDays?: number;
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
  /** Redis behind Sentinel or a Cluster (REDIS_SENTINELS, REDIS_CLUSTER_NODES); takes the place of `redisUrl`. */
  redisTarget?: RedisTarget | undefined;
  /** REDIS_OUTAGE_MODE: while Redis is unreachable, serve on per-instance counters (default) or refuse with a retryable 429. */
  redisOutageMode?: RedisOutageMode;
  /** DATABASE_POOL_SIZE, DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_REPLICA_URL. */
  database?: DatabaseSettings;
  /** Prepended to every Redis key and channel (REDIS_KEY_PREFIX; default `switchyard:`). */
  redisPrefix?: string;
  /** RESPONSES_WEBSOCKET, RESPONSES_WEBSOCKET_MAX_PER_KEY and the socket timers; defaults in DEFAULT_RESPONSES_WEBSOCKET. */
  responsesWebSocket?: Partial<ResponsesWebSocketSettings>;
  /** Notifications (issue 30): the e-mail channel's mailer (the SMTP settings'), the outbox poll and scan intervals (0: no timers). */
  notifications?: { mailer?: Mailer; outboxPollMs?: number; scanIntervalMs?: number; allowPrivateAccountTargets?: boolean };
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
  /** Notifications: the notifier (emitNotification), the outbox dispatcher and the scan. */
  notifications: NotificationServices;
  /** Stops accepting new work: /readyz answers 503 from now on. `close()` also does it. */
  drain(): void;
  /** Drains, waits for open requests and streams to finish, then closes everything. */
  close(): Promise<void>;
}

/** The relay's total deadline for one request (the upstream's `totalMs`; default 10 minutes). */
export function totalTimeoutMs(options: GatewayOptions): number {
  return options.upstream.totalMs ?? 600_000;
}
