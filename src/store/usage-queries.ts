/** The usage log's query and aggregate shapes (filters, rows, totals, series), which only the store answers. */

export interface UsageLogQuery {
  limit?: number;
  keyId?: string;
  /** Only rows of this user's keys (as recorded on the row). */
  userId?: string;
  group?: string;
  model?: string;
  channelId?: string;
  status?: number;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
  /** Return entries older than this time (cursor pagination). */
  before?: number;
  /** With `before`: also entries at exactly that time whose request id sorts before this one. */
  beforeRequestId?: string;
}

export interface UsageAggregateQuery {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /** One row per UTC day × key id, or per UTC day × requested model name. */
  /** `payer`: what paid (`subscription:<id>`, `wallet:<user id>`, `key_balance:<key id>`; null = nothing charged). */
  by: 'key' | 'model' | 'payer';
  /** Only this key's rows. */
  keyId?: string;
  /** Only rows of this user's keys (as recorded on the row). */
  userId?: string;
}

export interface UsageAggregateRow {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The key id or the model name (by the query's `by`); null for requests without one. */
  subject: string | null;
  requests: number;
  /** Requests that ended with a status of 400 or above. */
  errors: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costMicros: number;
}

/** Usage aggregated over time buckets, for charts; the same filters as `UsageLogQuery`. */
export interface UsageSummaryQuery {
  /** Epoch ms, inclusive; the first bucket starts at `from` rounded down to `bucketMs`. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /** Bucket width in ms (a positive integer; buckets are aligned to the epoch, i.e. UTC). */
  bucketMs: number;
  keyId?: string;
  group?: string;
  model?: string;
  /** Rows in each breakdown (default 10). */
  top?: number;
}

export interface UsageTotals {
  requests: number;
  /** Requests answered with status >= 400. */
  errors: number;
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  /** Approximate (log-spaced histogram, interpolated); null when there were no requests. */
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

export interface UsageSeriesPoint extends UsageTotals {
  /** Bucket start, epoch ms. */
  start: number;
}

export interface UsageBreakdownRow extends Omit<UsageTotals, 'latencyP50Ms' | 'latencyP95Ms'> {
  /** The model name, or the key id (null for requests without a valid key). */
  id: string | null;
  /** The key's name as logged; the model name again for the model breakdown. */
  name: string | null;
}

export interface UsageSummary {
  /** One point per bucket from `from` to `to`, empty buckets included, oldest first. */
  series: UsageSeriesPoint[];
  totals: UsageTotals;
  /** Most requested first. */
  byModel: UsageBreakdownRow[];
  byKey: UsageBreakdownRow[];
}

/** Requests in one status-page window: all, answered (< 400), and refused for the client's own fault (4xx but 429). */
export interface StatusWindowCounts {
  requests: number;
  succeeded: number;
  clientErrors: number;
}

export interface StatusFiguresRow {
  group: string;
  model: string;
  windows: Record<'24h' | '7d' | '30d', StatusWindowCounts>;
  ttfbP50Ms: number | null;
  ttfbP95Ms: number | null;
}

export interface ChannelWindowRow {
  channelId: string;
  requests: number;
  /** Answered 5xx or 429. */
  failed: number;
  /** Answered below 400: the requests the TTFB is measured over. */
  answered: number;
  /** Time to first byte p95 of the answered requests (from the latency histogram's bins); null when none. */
  ttfbP95Ms: number | null;
}

export interface SpendWindowRow {
  keyId: string;
  userId: string | null;
  costMicros: number;
}
