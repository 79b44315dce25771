import type { envSchema } from './config-schema.ts';

export type EnvVariable = keyof typeof envSchema.shape;

/**
 * What each variable of `envSchema` means, for `--help`. The type names every key of the schema,
 * so a variable added there without a line here fails the type-check; `default` replaces the
 * default `--help` derives from the schema where that value is a placeholder.
 */
export const ENV_HELP: Record<EnvVariable, { meaning: string; default?: string }> = {
  PORT: { meaning: 'port to listen on' },
  HOST: { meaning: 'address to listen on' },
  DATABASE_URL: { meaning: 'sqlite:<path> or postgres://…' },
  REDIS_URL: { meaning: 'shared state for several workers or instances (redis:// or rediss://)' },
  REDIS_SENTINELS: { meaning: 'Redis behind Sentinel: the sentinels as host:port,… (instead of REDIS_URL)' },
  REDIS_SENTINEL_NAME: { meaning: 'the name the sentinels monitor the primary under (required with REDIS_SENTINELS)' },
  REDIS_SENTINEL_USERNAME: { meaning: 'ACL user for the sentinels themselves' },
  REDIS_SENTINEL_PASSWORD: { meaning: 'password for the sentinels themselves (requirepass of sentinel.conf)' },
  REDIS_CLUSTER_NODES: { meaning: 'Redis Cluster: some of its nodes as host:port,… (instead of REDIS_URL)' },
  REDIS_USERNAME: { meaning: 'ACL user of the Redis nodes with REDIS_SENTINELS or REDIS_CLUSTER_NODES (with REDIS_URL: in the URL)' },
  REDIS_PASSWORD: { meaning: 'password of the Redis nodes with REDIS_SENTINELS or REDIS_CLUSTER_NODES (with REDIS_URL: in the URL)' },
  REDIS_TLS: { meaning: 'TLS to every Redis node and sentinel (with REDIS_URL: use rediss://)' },
  REDIS_OUTAGE_MODE: { meaning: 'while Redis is unreachable or failing over: local (serve on per-instance counters) or refuse (retryable 429)' },
  DATABASE_POOL_SIZE: { meaning: 'PostgreSQL connections per instance (per worker)' },
  DATABASE_STATEMENT_TIMEOUT_MS: { meaning: 'PostgreSQL cancels a statement running longer; 0: no limit' },
  DATABASE_REPLICA_URL: { meaning: "a PostgreSQL read replica for the console's heavy reads (logs, usage, exports)" },
  REDIS_KEY_PREFIX: { meaning: 'prefix of every Redis key and pub/sub channel, so gateways can share one Redis' },
  GATEWAY_ADMIN_TOKEN: { meaning: 'the admin API token, 16+ characters', default: 'generated, shown until first used' },
  GATEWAY_SECRET: { meaning: 'encrypts upstream secrets, 16+ characters; required with PostgreSQL', default: './data/gateway.secret with SQLite' },
  PUBLIC_URL: {
    meaning:
      'the gateway as people reach it (https://gateway.example.com): sign-up and reset e-mails link to it, OIDC providers call back to it, passkeys are bound to its host',
  },
  METRICS_TOKEN: { meaning: 'a read-only Bearer token for GET /metrics (the admin token also works)' },
  GATEWAY_CONFIG: { meaning: 'a YAML file of groups, channels, keys and prices applied at start' },
  WORKERS: {
    meaning: 'processes (Node cluster); more than 1 needs Redis (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES)',
    default: '1, or every core with NODE_ENV=production and REDIS_URL',
  },
  DRAIN_TIMEOUT_MS: { meaning: 'on SIGTERM, how long open requests and streams may finish before they are ended with an error in their protocol' },
  LOG_LEVEL: { meaning: 'fatal, error, warn, info, debug, trace or silent' },
  BODY_LIMIT_BYTES: { meaning: 'largest request body accepted; 413 beyond' },
  STREAM_IDLE_TIMEOUT_MS: { meaning: 'longest silence between two upstream stream chunks' },
  UPSTREAM_CONNECT_TIMEOUT_MS: { meaning: 'upstream connection set-up' },
  UPSTREAM_FIRST_BYTE_TIMEOUT_MS: { meaning: "upstream reply headers (a non-streamed reply's first byte)" },
  UPSTREAM_TOTAL_TIMEOUT_MS: { meaning: 'one whole upstream call' },
  FIRST_BYTE_DEADLINE_MIN_MS: { meaning: "floor of a stream's first-byte deadline, twice the channel's p95" },
  FIRST_BYTE_DEADLINE_MAX_MS: { meaning: "ceiling of a stream's first-byte deadline" },
  FIRST_BYTE_DEADLINE_COLD_MS: { meaning: 'the first-byte deadline until 10 times are known' },
  FIRST_BYTE_DEADLINE_MAX_BODY_CHARS: { meaning: 'a body longer than this (characters) gets no first-byte deadline, so a long prompt is never hedged' },
  SERVER_FIRST_BYTE_TIMEOUT_MS: { meaning: 'a new connection that has sent no byte by then is closed' },
  MAX_CONNECTIONS_PER_IP: { meaning: 'open sockets one peer address may hold (trusted proxies exempt)', default: 'a quarter of MAX_CONNECTIONS' },
  BLOCK_PRIVATE_UPSTREAMS: { meaning: 'refuse channel addresses that are or resolve to private, loopback or link-local ones' },
  RESPONSES_MAX_CHAIN_BYTES: { meaning: 'kept Responses turns of one conversation past this are not continued (429)' },
  RESPONSES_MAX_KEY_BYTES: { meaning: "a key's kept Responses turns past this keep no more (429 with store on)" },
  RESPONSES_WEBSOCKET: { meaning: 'serve Responses over WebSocket (GET /v1/responses upgrade); false answers 426' },
  RESPONSES_WEBSOCKET_MAX_PER_KEY: { meaning: 'open Responses WebSockets per key across instances; the next upgrade gets 426' },
  HEDGE_STREAMS: { meaning: 'past the deadline, start the next channel beside the late one (false: instead of it)' },
  ALT_PREFIX: { meaning: 'path prefix of the alternative-client surface' },
  TRUSTED_PROXIES: { meaning: 'IPs/CIDRs whose client-address header is believed, comma-separated' },
  CLIENT_IP_HEADER: { meaning: 'the one header read behind a trusted proxy: x-forwarded-for, forwarded or x-real-ip' },
  SERVER_HEADERS_TIMEOUT_MS: { meaning: 'request headers must arrive within this' },
  SERVER_BODY_TIMEOUT_MS: { meaning: 'a whole request must arrive within this' },
  SERVER_KEEP_ALIVE_TIMEOUT_MS: { meaning: 'idle keep-alive sockets close after this' },
  MAX_CONNECTIONS: { meaning: 'open sockets beyond this are refused' },
  LISTEN_BACKLOG: { meaning: 'connections the kernel holds before the gateway accepts them' },
  REVEAL_OTHER_GROUP_MODELS: { meaning: "tell a key that a model exists in another group (otherwise an unknown model's 404)" },
  LOG_RETENTION_DAYS: { meaning: 'usage log rows older than this are pruned; 0 keeps them' },
  LEDGER_RETENTION_DAYS: { meaning: 'ledger rows older than this are pruned (a channel-day with no imported bill 90 days later); 0 keeps them' },
  MAX_UPSTREAM_EVENT_BYTES: { meaning: 'the most held of one upstream stream event or plain reply' },
  MAX_UPSTREAM_REPLY_BYTES: { meaning: 'the most carried of one whole reply' },
  RESERVE_OUTPUT_TOKENS: { meaning: 'output tokens held for an uncapped request to a model of unknown maximum' },
  AFFINITY_TTL_SECONDS: { meaning: "conversation affinity lasts this long after a conversation's last turn; 0 turns it off" },
  RESPONSES_RETENTION_HOURS: { meaning: 'how long stateful Responses turns are kept' },
  RESPONSES_MAX_TURN_BYTES: { meaning: 'a Responses turn larger than this is not kept' },
  STRICT_PRICING: { meaning: 'refuse models without a price (403 model_not_priced); false serves them free' },
};

/** Read outside the schema (it only chooses a default): listed with the others so `--help` names it. */
export const OTHER_ENV_HELP: Record<string, string> = {
  NODE_ENV: 'production (with REDIS_URL) makes WORKERS default to every core',
};
