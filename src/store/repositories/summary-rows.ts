import type { UsageBreakdownRow, UsageTotals } from '../usage-queries.ts';
import { LATENCY_BOUNDS } from './latency-bins.ts';

/** The summary's row shapes, shared by its raw and rollup readers. */
export type Counts = Omit<UsageTotals, 'latencyP50Ms' | 'latencyP95Ms'>;

/**
 * What the summary reads from the database, before it is shaped: counts and latency bins per
 * bucket start, and the top models and keys. Read from usage_logs, or from the hourly rollup
 * (summarize-usage-rollup.ts) when the buckets are whole hours.
 */
export interface SummaryParts {
  countsByBucket: Map<number, Counts>;
  binsByBucket: Map<number, number[]>;
  byModel: UsageBreakdownRow[];
  byKey: UsageBreakdownRow[];
}

export interface CountRow {
  requests: unknown;
  errors: unknown;
  input_tokens: unknown;
  output_tokens: unknown;
  cost_micros: unknown;
}

export function toCounts(row: CountRow): Counts {
  return {
    requests: Number(row.requests),
    errors: Number(row.errors ?? 0),
    inputTokens: Number(row.input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    costMicros: Number(row.cost_micros ?? 0),
  };
}

export function toBreakdown(row: CountRow & { id: string | null; name: string | null }): UsageBreakdownRow {
  return { id: row.id, name: row.name, ...toCounts(row) };
}

export function emptyBins(): number[] {
  return LATENCY_BOUNDS.map(() => 0).concat(0);
}
