import type { ReconciliationEvents } from '../ledger/reconciliation-events.ts';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.ts';
import type { AccessServices } from '../billing/access-services.ts';
import type { UsageWriter } from '../billing/usage-writer.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import type { Store } from '../store/store.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import type { GatewayMetrics } from './observability/gateway-metrics.ts';
import type { ServerLimits } from '../config/server-limits.ts';
import type { StatefulResponses } from '../responses/stateful-responses.ts';
import type { ConversationAffinity } from '../relay/routing/conversation-affinity.ts';
import type { CompactionSeal } from '../responses/compaction-seal.ts';
import type { ResponsesWebSocketSettings } from '../config/responses-websocket-settings.ts';
import type { NotificationServices } from '../notify/start-notifications.ts';

/** What the HTTP layer needs to know about its own configuration. */
export interface ServerSettings {
  bodyLimitBytes: number;
  /** The alternative-client path prefix, without slashes (default `antigravity`). */
  altPrefix: string;
  /** SHA-256 of the admin token. */
  adminTokenHash: string;
  /** Timeouts and the connection cap; defaults in DEFAULT_SERVER_LIMITS. */
  limits?: ServerLimits;
  /** TRUSTED_PROXIES: peers exempt from the per-address connection share (they limit per client themselves). */
  trustedProxies?: readonly string[];
  /** Say "not in your group" for a model another group has (REVEAL_OTHER_GROUP_MODELS); default: the same 404 as an unknown model. */
  revealOtherGroupModels?: boolean;
  /** BLOCK_PRIVATE_UPSTREAMS: channel addresses that are private, loopback or link-local are refused (400). */
  blockPrivateUpstreams?: boolean;
  /** SHA-256 of METRICS_TOKEN, the read-only scrape credential for /metrics, when set. */
  metricsTokenHash?: string | undefined;
  /** PUBLIC_URL without a trailing slash: the origin of e-mailed links and OIDC redirect URIs. */
  publicUrl?: string | undefined;
  /** Responses over WebSocket (RESPONSES_WEBSOCKET…); absent: on, with the defaults. */
  responsesWebSocket?: ResponsesWebSocketSettings;
}

/** Everything `createApp` is given; no module reaches for a global instead. */
export interface AppDeps {
  settings: ServerSettings;
  store: Store;
  snapshot: SnapshotHolder;
  usageWriter: UsageWriter;
  /** Keep the ledger (issue 27): each request's attempt and charge rows ride in its usage row. */
  keepLedger?: boolean;
  /** Where reconciliation raises `reconciliation.drift` (the alerting work subscribes). */
  reconciliation?: ReconciliationEvents;
  /** Client IP resolution, rate limits, balances and spend caps (kv-backed). */
  access: AccessServices;
  /** The relay's own dependencies (upstream client, retry policy, channel health), built once. */
  relay: RelayDeps;
  metrics: GatewayMetrics;
  runtime: RuntimeContext;
  logger: Logger;
  /** Stateful Responses: turns kept per key, GET/DELETE /v1/responses/{id}. */
  responses?: StatefulResponses;
  /** Conversation affinity (absent when AFFINITY_TTL_SECONDS is 0). */
  affinity?: ConversationAffinity;
  /** Outgoing e-mail (sign-up, reset, alerts); absent: the SMTP settings in the store (`createStoreMailer`). */
  mailer?: Mailer;
  /** The gateway's compaction items (POST /v1/responses/compact). */
  compaction?: CompactionSeal;
  /** Alerts (issue 30): rules and channels reload it, "send test" uses its sender. */
  notifications?: NotificationServices;
}
