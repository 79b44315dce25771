import type { Logger } from 'pino';
import type { AccessServices } from '../billing/access-services.ts';
import type { UsageWriter } from '../billing/usage-writer.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import type { Store } from '../store/store.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import type { GatewayMetrics } from './gateway-metrics.ts';
import type { ServerLimits } from '../config/server-limits.ts';
import type { StatefulResponses } from '../responses/stateful-responses.ts';
import type { ConversationAffinity } from '../routing/conversation-affinity.ts';

/** What the HTTP layer needs to know about its own configuration. */
export interface ServerSettings {
  bodyLimitBytes: number;
  /** The alternative-client path prefix, without slashes (default `antigravity`). */
  altPrefix: string;
  /** SHA-256 of the admin token. */
  adminTokenHash: string;
  /** Timeouts and the connection cap; defaults in DEFAULT_SERVER_LIMITS. */
  limits?: ServerLimits;
  /** Say "not in your group" for a model another group has (REVEAL_OTHER_GROUP_MODELS); default: the same 404 as an unknown model. */
  revealOtherGroupModels?: boolean;
  /** SHA-256 of METRICS_TOKEN, the read-only scrape credential for /metrics, when set. */
  metricsTokenHash?: string | undefined;
}

/** Everything `createApp` is given; no module reaches for a global instead. */
export interface AppDeps {
  settings: ServerSettings;
  store: Store;
  snapshot: SnapshotHolder;
  usageWriter: UsageWriter;
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
}
