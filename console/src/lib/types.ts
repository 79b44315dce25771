/**
 * Shapes the admin API answers with. Groups, channels, keys and prices come from the gateway's
 * own `src/server/admin-api-types.ts`, which `admin-views.ts` builds them as, so they cannot
 * drift; the log and insight shapes below are still written here (times as ISO strings, money
 * in USD; log rows also keep costMicros).
 */
export type {
  AdminApiKey as ApiKeyRecord,
  AdminChannel as Channel,
  AdminChannelHealth as ChannelHealth,
  AdminGroup as Group,
  AdminKeyLimits as KeyLimits,
  AdminPrice as Price,
} from '../../../src/server/admin-api-types.ts';

export interface UsageAttempt {
  channelId: string;
  channelName: string;
  status: number | null;
  errorCode: string | null;
  latencyMs: number;
}

export interface LogEntry {
  requestId: string;
  time: string;
  keyId: string | null;
  keyName: string | null;
  group: string | null;
  model: string | null;
  upstreamModel: string | null;
  channelId: string | null;
  channelName: string | null;
  clientProtocol: string | null;
  upstreamProtocol: string | null;
  surface: string | null;
  status: number;
  errorCode: string | null;
  errorMessage: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costMicros?: number;
  cost?: number;
  latencyMs: number;
  ttftMs: number | null;
  stream: boolean;
  warnings: string[];
  attempts: UsageAttempt[];
  clientIp: string | null;
}

export interface UsageTotals {
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

export interface UsageSummary {
  range: string;
  bucketMs: number;
  totals: UsageTotals;
  series: Array<UsageTotals & { start: string }>;
  topModels: Array<{ id: string | null; name: string | null; requests: number; errors: number; cost: number; inputTokens: number; outputTokens: number }>;
  topKeys: Array<{ id: string | null; name: string | null; requests: number; errors: number; cost: number; inputTokens: number; outputTokens: number }>;
}

export type ListAnswer<T> = { data: T[] };

/** A list the gateway pages: `next` is the cursor of the following (older) page, null on the last. */
export type PagedAnswer<T> = { data: T[]; next?: string | null };

export interface AuditEntry {
  id: string;
  time: string;
  actor: string;
  clientIp: string | null;
  userAgent: string | null;
  requestId: string | null;
  action: string;
  targetKind: string;
  targetId: string;
  targetName: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
