/**
 * Shapes the admin API answers with, as built by src/server/routes/admin-views.ts and the log and
 * insight routes: times as ISO strings and money in USD (log rows also keep costMicros), where
 * the store's records (src/store/store.ts) keep epoch ms and micro-USD; so they are written here
 * rather than imported from there. Fields other engineers add later are optional here.
 */
export interface Group {
  name: string;
  description: string;
  priceMultiplier: number;
}

export interface ChannelHealth {
  state?: string;
  circuit?: string;
  reason?: string | null;
  successRate?: number | null;
  latencyP50?: number | null;
  latencyP95?: number | null;
  lastError?: string | { message?: string; code?: string; at?: string } | null;
}

export interface Channel {
  id: string;
  name: string;
  provider: string;
  baseUrl: string;
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
  apiVersion?: string;
  region?: string;
  project?: string;
  health?: ChannelHealth | null;
}

export interface KeyLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  concurrentRequests?: number;
  dailySpend?: number;
  weeklySpend?: number;
  monthlySpend?: number;
}

export interface ApiKeyRecord {
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
  limits: KeyLimits;
}

export interface Price {
  model: string;
  input: number;
  output: number;
  cacheRead: number | null;
  cacheWrite: number | null;
}

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
