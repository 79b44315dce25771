import { z } from 'zod';
import { CLIENT_IP_HEADERS, type ClientIpHeader } from '../access/resolve-client-ip.ts';
import type { ServerLimits } from './server-limits.ts';
import { isIpOrCidr } from '../schemas/is-ip-or-cidr.ts';
import { DEFAULT_RESERVED_OUTPUT_TOKENS } from '../billing/model-output-limits.ts';
import { DEFAULT_REPLY_LIMITS } from './reply-limits.ts';
import type { RedisTarget } from '../kv/redis-target.ts';
import type { RedisOutageMode } from '../kv/kv-outage.ts';
import type { DatabaseSettings } from '../store/parse-database-url.ts';
import { redisHaEnv } from './redis-env.ts';

/**
 * Requests whose body is longer than this (characters; about 8,000–32,000 tokens) get no
 * first-byte deadline, so they are never hedged or given up for another channel: their
 * first byte is slow because of the prompt's size, and every extra attempt pays for the whole
 * prompt again (FIRST_BYTE_DEADLINE_MAX_BODY_CHARS).
 */
export const DEFAULT_DEADLINE_MAX_BODY_CHARS = 32_768;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The process configuration, from the environment. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  /** Where the shared state lives (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES); undefined: one process's memory. */
  redisTarget: RedisTarget | undefined;
  /** While Redis is unreachable or failing over: serve on per-instance counters, or refuse with a retryable 429. */
  redisOutageMode: RedisOutageMode;
  /** PostgreSQL connections per instance, the longest statement (0: no limit), and a replica for the console's heavy reads. */
  database: DatabaseSettings;
  /** Prepended to every Redis key and pub/sub channel, so several gateways can share one Redis. */
  redisKeyPrefix: string;
  adminToken: string | undefined;
  gatewaySecret: string | undefined;
  /** METRICS_TOKEN: read-only Bearer credential for GET /metrics. */
  metricsToken: string | undefined;
  /** PUBLIC_URL: the gateway's address as people reach it; e-mailed links and OIDC callbacks are built on it. */
  publicUrl: string | undefined;
  /** Path of the declarative YAML file (GATEWAY_CONFIG) applied at start-up. */
  configFile: string | undefined;
  /** Processes serving on this machine (a Node cluster when > 1). */
  workers: number;
  /** On SIGTERM, how long open requests and streams may take before connections are closed. */
  drainTimeoutMs: number;
  logLevel: LogLevel;
  bodyLimitBytes: number;
  streamIdleTimeoutMs: number;
  upstreamConnectTimeoutMs: number;
  upstreamFirstByteTimeoutMs: number;
  upstreamTotalTimeoutMs: number;
  /**
   * A streamed attempt without its first byte after this long (from the channel × model's
   * observed times, within min and max; `coldMs` until there are enough) no longer holds the
   * caller: the next channel starts (beside it when `hedge`, instead of it otherwise).
   */
  firstByteDeadline: { minMs: number; maxMs: number; coldMs: number; hedge: boolean; maxBodyChars: number };
  /** Path prefix of the alternative-client surface, without slashes. */
  altPrefix: string;
  /** IPs or CIDRs whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  /** The one proxy header read for the client address when the peer is a trusted proxy. */
  clientIpHeader: ClientIpHeader;
  /** HTTP server limits against slow or numerous clients. */
  server: ServerLimits;
  /** Tell a key that a model exists in another group (off: the same 404 as an unknown model). */
  revealOtherGroupModels: boolean;
  /** Refuse channel addresses that are private, loopback or link-local, at save time and at connect time. */
  blockPrivateUpstreams: boolean;
  /** Usage logs older than this are pruned; 0 keeps them forever. */
  logRetentionDays: number;
  /** Ledger rows older than this are pruned (an unreconciled channel-day 90 days later); 0 keeps them forever. */
  ledgerRetentionDays: number;
  /** Refuse requests for models without a price instead of logging them at zero cost. */
  strictPricing: boolean;
  /** Output tokens held for a request without an output cap, for a model of unknown maximum. */
  reservedOutputTokens: number;
  /** Bounds on one upstream event (and a plain reply) and on one whole reply, bytes. */
  replyLimits: { maxEventBytes: number; maxReplyBytes: number };
  /** Stateful Responses turns are kept this long (hours). */
  responsesRetentionHours: number;
  /** A Responses turn larger than this (input + response, UTF-8 bytes) is not kept. */
  responsesMaxTurnBytes: number;
  /** A Responses conversation whose kept turns add up to more than this (bytes) is not continued (429). */
  responsesMaxChainBytes: number;
  /** A key whose kept Responses turns add up to this (bytes) keeps no more (429 with store on). */
  responsesMaxKeyBytes: number;
  /** Conversation affinity lasts this long after a conversation's last turn (seconds); 0 turns it off. */
  affinityTtlSeconds: number;
  /** Responses over WebSocket (`GET /v1/responses` upgrade): on, and at most this many open sockets per key. */
  responsesWebSocket: { enabled: boolean; maxPerKey: number };
}

// Every variable arrives as a string or not at all; an empty string counts as unset, as
// `FOO=` in a compose file usually means "not configured".
const raw = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

function integer(options: { min: number; max: number; fallback: number }) {
  return raw.transform((value, context) => {
    if (value === undefined) return options.fallback;
    const parsed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < options.min || parsed > options.max) {
      context.addIssue({
        code: 'custom',
        message: `expected an integer from ${options.min} to ${options.max}, got ${JSON.stringify(value)}`,
      });
      return z.NEVER;
    }
    return parsed;
  });
}

function text(options: { fallback?: string; check?: (value: string) => boolean; expects: string; secret?: boolean }) {
  return raw.transform((value, context) => {
    if (value === undefined) return options.fallback;
    if (options.check && !options.check(value)) {
      const got = options.secret ? '' : `, got ${JSON.stringify(value)}`;
      context.addIssue({ code: 'custom', message: `expected ${options.expects}${got}` });
      return z.NEVER;
    }
    return value;
  });
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/** A true/false switch (1/0, yes/no, on/off too); anything else is refused with the value named. */
function flag(fallback: boolean) {
  return raw.transform((value, context) => {
    if (value === undefined) return fallback;
    const lower = value.toLowerCase();
    if (TRUE.has(lower)) return true;
    if (FALSE.has(lower)) return false;
    context.addIssue({ code: 'custom', message: `expected true or false, got ${JSON.stringify(value)}` });
    return z.NEVER;
  });
}
const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;
const REDIS_HA_ENV = redisHaEnv({ text, flag });

export const envSchema = z.object({
  PORT: integer({ min: 0, max: 65_535, fallback: 8080 }),
  HOST: text({ fallback: '127.0.0.1', expects: 'a host name or IP address' }),
  DATABASE_URL: text({
    fallback: 'sqlite:./data/switchyard.db',
    check: (value) => /^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(value),
    expects: 'sqlite:<path>, postgres://… or postgresql://…',
    secret: true,
  }),
  REDIS_URL: text({
    check: (value) => /^rediss?:\/\/.+/.test(value),
    expects: 'redis://… or rediss://…',
    secret: true,
  }),
  GATEWAY_ADMIN_TOKEN: text({
    check: (value) => value.length >= 16,
    expects: 'at least 16 characters (leave it unset to have one generated)',
    secret: true,
  }),
  GATEWAY_SECRET: text({
    check: (value) => value.length >= 16,
    expects: 'at least 16 characters, e.g. the output of `openssl rand -hex 32`',
    secret: true,
  }),
  METRICS_TOKEN: text({
    check: (value) => value.length >= 16,
    expects: 'at least 16 characters (a read-only credential for GET /metrics)',
    secret: true,
  }),
  PUBLIC_URL: text({
    check: (value) => /^https?:\/\/[^/?#\s]+\/?$/.test(value),
    expects: 'an origin such as https://gateway.example.com (no path)',
  }),
  GATEWAY_CONFIG: text({ expects: 'a file path' }),
  // Unset: all CPUs in production with REDIS_URL, else 1; decided in loadConfig.
  WORKERS: integer({ min: 1, max: 256, fallback: 0 }),
  DRAIN_TIMEOUT_MS: integer({ min: 0, max: MAX_TIMEOUT_MS, fallback: 30_000 }),
  ...REDIS_HA_ENV,
  DATABASE_POOL_SIZE: integer({ min: 1, max: 1_000, fallback: 10 }),
  // 0: no limit (a long migration or export is never cut short).
  DATABASE_STATEMENT_TIMEOUT_MS: integer({ min: 0, max: MAX_TIMEOUT_MS, fallback: 0 }),
  DATABASE_REPLICA_URL: text({ check: (value) => /^postgres(ql)?:\/\/.+/.test(value), expects: 'postgres://… or postgresql://…', secret: true }),
  REDIS_KEY_PREFIX: text({
    fallback: 'switchyard:',
    check: (value) => /^[A-Za-z0-9:._-]{1,64}$/.test(value),
    expects: 'up to 64 letters, digits, ":", ".", "_" or "-"',
  }),
  LOG_LEVEL: raw.transform((value, context) => {
    if (value === undefined) return 'info' as LogLevel;
    const level = value.toLowerCase();
    if (!(LOG_LEVELS as readonly string[]).includes(level)) {
      context.addIssue({ code: 'custom', message: `expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return level as LogLevel;
  }),
  BODY_LIMIT_BYTES: integer({ min: 1_024, max: 1_073_741_824, fallback: 20 * 1024 * 1024 }),
  STREAM_IDLE_TIMEOUT_MS: integer({ min: 1, max: MAX_TIMEOUT_MS, fallback: 120_000 }),
  UPSTREAM_CONNECT_TIMEOUT_MS: integer({ min: 1, max: MAX_TIMEOUT_MS, fallback: 10_000 }),
  UPSTREAM_FIRST_BYTE_TIMEOUT_MS: integer({ min: 1, max: MAX_TIMEOUT_MS, fallback: 120_000 }),
  UPSTREAM_TOTAL_TIMEOUT_MS: integer({ min: 1, max: MAX_TIMEOUT_MS, fallback: 600_000 }),
  FIRST_BYTE_DEADLINE_MIN_MS: integer({ min: 1, max: MAX_TIMEOUT_MS, fallback: 2_000 }),
  FIRST_BYTE_DEADLINE_MAX_MS: integer({ min: 1, max: MAX_TIMEOUT_MS, fallback: 20_000 }),
  FIRST_BYTE_DEADLINE_COLD_MS: integer({ min: 1, max: MAX_TIMEOUT_MS, fallback: 3_000 }),
  FIRST_BYTE_DEADLINE_MAX_BODY_CHARS: integer({ min: 0, max: 1_073_741_824, fallback: DEFAULT_DEADLINE_MAX_BODY_CHARS }),
  HEDGE_STREAMS: flag(true),
  ALT_PREFIX: text({
    fallback: 'antigravity',
    check: (value) => /^[A-Za-z0-9._~-]+$/.test(value) && !['v1', 'v1beta', 'api'].includes(value),
    expects: 'one path segment of letters, digits, ".", "_", "~" or "-" (not v1, v1beta or api)',
  }),
  TRUSTED_PROXIES: raw.transform((value, context) => {
    if (value === undefined) return [];
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const bad = entries.filter((entry) => !isIpOrCidr(entry));
    if (bad.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `expected a comma-separated list of IPs or CIDRs, but ${bad.map((entry) => JSON.stringify(entry)).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not`,
      });
      return z.NEVER;
    }
    return entries;
  }),
  CLIENT_IP_HEADER: raw.transform((value, context) => {
    if (value === undefined) return 'x-forwarded-for' as ClientIpHeader;
    const lower = value.toLowerCase();
    if (!(CLIENT_IP_HEADERS as readonly string[]).includes(lower)) {
      context.addIssue({ code: 'custom', message: `expected one of ${CLIENT_IP_HEADERS.join(', ')}, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return lower as ClientIpHeader;
  }),
  SERVER_HEADERS_TIMEOUT_MS: integer({ min: 1_000, max: MAX_TIMEOUT_MS, fallback: 60_000 }),
  SERVER_BODY_TIMEOUT_MS: integer({ min: 1_000, max: MAX_TIMEOUT_MS, fallback: 300_000 }),
  SERVER_KEEP_ALIVE_TIMEOUT_MS: integer({ min: 1_000, max: MAX_TIMEOUT_MS, fallback: 65_000 }),
  SERVER_FIRST_BYTE_TIMEOUT_MS: integer({ min: 1_000, max: MAX_TIMEOUT_MS, fallback: 5_000 }),
  MAX_CONNECTIONS: integer({ min: 1, max: 1_000_000, fallback: 10_000 }),
  // 0: a quarter of MAX_CONNECTIONS.
  MAX_CONNECTIONS_PER_IP: integer({ min: 0, max: 1_000_000, fallback: 0 }),
  LISTEN_BACKLOG: integer({ min: 1, max: 65_535, fallback: 4_096 }),
  REVEAL_OTHER_GROUP_MODELS: flag(false),
  BLOCK_PRIVATE_UPSTREAMS: flag(false),
  LOG_RETENTION_DAYS: integer({ min: 0, max: 36_500, fallback: 30 }),
  // Thirteen months: a year's margin against the same month last year, and a late bill.
  LEDGER_RETENTION_DAYS: integer({ min: 0, max: 36_500, fallback: 400 }),
  MAX_UPSTREAM_EVENT_BYTES: integer({ min: 65_536, max: 2 ** 31, fallback: DEFAULT_REPLY_LIMITS.maxEventBytes }),
  MAX_UPSTREAM_REPLY_BYTES: integer({ min: 65_536, max: 2 ** 40, fallback: DEFAULT_REPLY_LIMITS.maxReplyBytes }),
  RESERVE_OUTPUT_TOKENS: integer({ min: 1, max: 10_000_000, fallback: DEFAULT_RESERVED_OUTPUT_TOKENS }),
  AFFINITY_TTL_SECONDS: integer({ min: 0, max: 7 * 86_400, fallback: 3_600 }),
  RESPONSES_RETENTION_HOURS: integer({ min: 1, max: 8_760, fallback: 720 }),
  RESPONSES_MAX_TURN_BYTES: integer({ min: 1_024, max: 256 * 1024 * 1024, fallback: 4 * 1024 * 1024 }),
  RESPONSES_MAX_CHAIN_BYTES: integer({ min: 1_024, max: 1024 * 1024 * 1024, fallback: 16 * 1024 * 1024 }),
  RESPONSES_MAX_KEY_BYTES: integer({ min: 1_024, max: 2 ** 40, fallback: 256 * 1024 * 1024 }),
  RESPONSES_WEBSOCKET: flag(true),
  RESPONSES_WEBSOCKET_MAX_PER_KEY: integer({ min: 1, max: 100_000, fallback: 16 }),
  STRICT_PRICING: flag(true),
});
