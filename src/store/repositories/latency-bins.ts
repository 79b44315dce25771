import { sql, type RawBuilder } from 'kysely';
import type { UsageTotals } from '../usage-queries.ts';

/**
 * Upper bounds (ms, exclusive) of the latency histogram bins; the last bin is open-ended.
 * Percentiles come from these bins rather than from sorting every row, so the database returns
 * at most buckets × bins rows however many requests the range holds, with the same SQL on
 * SQLite and PostgreSQL. Steps of about 1.5× keep the interpolated value within ~25 %.
 */
export const LATENCY_BOUNDS = [
  5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 450, 650, 1000, 1500, 2250, 3500, 5000, 7500, 10_000, 15_000, 22_500, 35_000, 50_000, 75_000, 120_000, 180_000,
  300_000, 600_000,
];
/** The histogram bin of a latency column (`latency_ms` unless said): shared with the status page's TTFB. */
export function binExpression(column: RawBuilder<unknown> = sql`latency_ms`): RawBuilder<unknown> {
  const cases = LATENCY_BOUNDS.map((bound, index) => sql`when ${column} < ${sql.lit(bound)} then ${sql.lit(index)}`);
  return sql`case ${sql.join(cases, sql` `)} else ${sql.lit(LATENCY_BOUNDS.length)} end`;
}

/** Linear interpolation inside the bin that holds the rank; the open last bin reports its lower bound. */
export function percentiles(bins: number[] | undefined): Pick<UsageTotals, 'latencyP50Ms' | 'latencyP95Ms'> {
  const total = bins?.reduce((sum, n) => sum + n, 0) ?? 0;
  if (!bins || total === 0) return { latencyP50Ms: null, latencyP95Ms: null };
  return { latencyP50Ms: percentile(bins, total, 0.5), latencyP95Ms: percentile(bins, total, 0.95) };
}

function percentile(bins: number[], total: number, fraction: number): number {
  const rank = fraction * total;
  let seen = 0;
  for (let index = 0; index < bins.length; index += 1) {
    const count = bins[index]!;
    if (count > 0 && seen + count >= rank) {
      const lower = index === 0 ? 0 : LATENCY_BOUNDS[index - 1]!;
      const upper = LATENCY_BOUNDS[index];
      if (upper === undefined) return lower;
      return Math.round(lower + ((upper - lower) * (rank - seen)) / count);
    }
    seen += count;
  }
  return LATENCY_BOUNDS[LATENCY_BOUNDS.length - 1]!;
}
