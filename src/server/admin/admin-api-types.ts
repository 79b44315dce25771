import type { BillingMode } from '../../domain/billing-mode.ts';
import type { ChannelKind } from '../../domain/channel-kind.ts';
import type { UsageLogEntry } from '../../domain/usage-log-entry.ts';
import type { AuditEntry } from '../../store/audit-log.ts';

/*
 * The records the admin API answers with, as `routes/admin-views.ts` builds them: times as ISO
 * strings (records keep epoch ms, except channels and groups, which show them as stored), money
 * in USD where the store keeps micro-USD, secrets masked. The console imports this file by
 * relative path (console/src/lib/types.ts), so the two cannot drift: a change here that the
 * console does not follow fails `npm run build --prefix console`. It may import only files that
 * import nothing themselves, because the console type-checks it in a browser setting.
 */

export interface AdminGroup {
  name: string;
  description: string;
  priceMultiplier: number;
  /** Provider feature classes the group's keys may use: `server-tools`, `stored-objects`, `priority-tier`. */
  allowedFeatures: readonly string[];
  billing: BillingMode;
  createdAt: number;
}

export type AdminCircuitState = 'closed' | 'open' | 'half-open';

/** Live health of a channel in this gateway process (`routing/channel-health.ts` `describe`). */
export interface AdminChannelHealth {
  state: AdminCircuitState;
  reason: string | null;
  openedAt: number | null;
  retryAt: number | null;
  /** Share of calls that succeeded within the last `successWindowMs`; null when none were made in it. */
  successRate: number | null;
  successWindowMs: number;
  latencyP50: number | null;
  latencyP95: number | null;
  requests: number;
  lastError: { at: number; status: number | null; code: string; message: string } | null;
  /** When a call last succeeded (traffic, probe or manual test); null if never. */
  lastSuccessAt: number | null;
  keys: Array<{ index: number; state: AdminCircuitState; reason: string | null }>;
  /** Models whose own circuit on this channel is not closed (a failure about one model stays with it). */
  models: Array<{ model: string; state: AdminCircuitState; reason: string | null; retryAt: number | null }>;
  /** What an operator reads (`routing/health-status.ts`): healthy, degraded, failing, disabled, circuit open, untested. */
  status: 'healthy' | 'degraded' | 'failing' | 'disabled' | 'circuit open' | 'untested';
  statusReason: string | null;
}

export interface AdminChannel {
  id: string;
  name: string;
  provider: ChannelKind;
  baseUrl: string;
  /** Masked: enough to tell keys apart, never enough to use one. */
  apiKeys: string[];
  apiKeyCount: number;
  models: string[];
  groups: string[];
  modelMap: Record<string, string>;
  priority: number;
  weight: number;
  enabled: boolean;
  supportsResponses: boolean;
  allowedPrefixes: string[];
  /** Azure: the api-version query parameter. */
  apiVersion?: string;
  /** Vertex and Bedrock: the cloud region. */
  region?: string;
  /** Vertex: the Google Cloud project id. */
  project?: string;
  createdAt: number;
  updatedAt: number;
  health?: AdminChannelHealth;
}

/** Spend limits in USD (the store keeps micro-USD). */
export interface AdminKeyLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  concurrentRequests?: number;
  dailySpend?: number;
  weeklySpend?: number;
  monthlySpend?: number;
}

export interface AdminApiKey {
  id: string;
  name: string;
  group: string;
  keyHint: string;
  expiresAt: string | null;
  balance: number | null;
  spent: number;
  allowedModels: string[] | null;
  allowedIps: string[] | null;
  enabled: boolean;
  limits: AdminKeyLimits;
  /** The owning user's id; with `balance` null such a key spends from the user's wallet. */
  user: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A key in the admin API's answers (not in audit entries): whose it is and what pays its next request. */
export interface AdminApiKeyListing extends AdminApiKey {
  /** The owning account, null for an operator's key. */
  owner: { id: string; name: string } | null;
  /** As `GET /api/me` says it (`billing/next-payer.ts`): `key_balance`, `wallet`, `subscription` or `unlimited`. */
  paysFrom: 'key_balance' | 'wallet' | 'subscription' | 'unlimited';
  /**
   * USD the key can spend right now, null for a key without a balance: the live figure its next
   * request holds against (shared counters, requests in flight and charges not yet written
   * included), the same figure a wallet's `balance` and `available` show. `balance` stays the
   * database's settled figure.
   */
  available: number | null;
}

/** USD per million tokens. */
export interface AdminPrice {
  model: string;
  input: number;
  output: number;
  cacheRead: number | null;
  cacheWrite: number | null;
  /** USD per 1,000 web searches; absent: not charged. */
  webSearch?: number;
  /** USD per image: one figure or `{ "<size>": { "<quality>": USD } }`; absent: none. */
  perImage?: number | Record<string, Record<string, number>>;
  /** USD per million image tokens read and written; absent: none. */
  imageInput?: number;
  imageOutput?: number;
  /** USD per second of audio, per million speech characters, per million audio tokens, per rerank search unit; absent: none. */
  perSecond?: number;
  perMillionCharacters?: number;
  audioInput?: number;
  audioOutput?: number;
  perSearchUnit?: number;
  /** The classes and tiers of issue 27, only when set (USD; tiers per million tokens). */
  cacheWrite1h?: number;
  reasoning?: number;
  perRequest?: number;
  tiers?: Array<{ aboveInputTokens: number; input: number; output: number; cacheRead?: number; cacheWrite?: number; cacheWrite1h?: number }>;
  free?: boolean;
  /** The price version this price was set as (every charge at it names it). */
  version?: string;
  updatedAt: string;
}

/** A page of a list the gateway pages: `next` is the cursor of the following (older) page, null on the last. */
export interface AdminPage<T> {
  data: T[];
  next: string | null;
}

/** `GET /api/admin/logs`: the usage log row, its time as an ISO string (money stays in micro-USD). */
export type AdminLogEntry = Omit<UsageLogEntry, 'time'> & { time: string };

/** `GET /api/admin/audit`: a change made through the admin API or the config file, its time as an ISO string. */
export type AdminAuditEntry = Omit<AuditEntry, 'time'> & { time: string };

export interface AdminUsageTotals {
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  /** USD. */
  cost: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

export interface AdminUsageBreakdownRow {
  id: string | null;
  name: string | null;
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
}

/** `GET /api/admin/insight/summary`. */
export interface AdminUsageSummary {
  range: string;
  bucketMs: number;
  from: string;
  to: string;
  totals: AdminUsageTotals;
  series: Array<AdminUsageTotals & { start: string }>;
  topModels: AdminUsageBreakdownRow[];
  topKeys: AdminUsageBreakdownRow[];
}
