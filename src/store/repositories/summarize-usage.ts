import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';
import type { UsageBreakdownRow, UsageSeriesPoint, UsageSummary, UsageSummaryQuery, UsageTotals } from '../usage-queries.ts';

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
const MAX_BUCKETS = 2000;
const DEFAULT_TOP = 10;

type Counts = Omit<UsageTotals, 'latencyP50Ms' | 'latencyP95Ms'>;

export async function summarizeUsage(db: Kysely<DatabaseSchema>, query: UsageSummaryQuery): Promise<UsageSummary> {
  const { bucketMs } = query;
  if (!Number.isSafeInteger(bucketMs) || bucketMs < 1) throw new RangeError(`bucketMs must be a positive integer, got ${bucketMs}`);
  const first = Math.floor(query.from / bucketMs) * bucketMs;
  if (query.to <= first) throw new RangeError('to must be later than from');
  if ((query.to - first) / bucketMs > MAX_BUCKETS) throw new RangeError(`at most ${MAX_BUCKETS} buckets per summary`);
  const top = query.top ?? DEFAULT_TOP;

  const where = whereClause(query, first);
  // Inlined, not bound: better-sqlite3 would bind a JS number as REAL and turn `/` into float division.
  const bucket = sql`(time / ${sql.lit(bucketMs)}) * ${sql.lit(bucketMs)}`;
  const counts = sql`count(*) as requests,
    sum(case when status >= 400 then 1 else 0 end) as errors,
    sum(input_tokens) as input_tokens, sum(output_tokens) as output_tokens, sum(cost_micros) as cost_micros`;

  const [perBucket, histogram, byModel, byKey] = await Promise.all([
    sql<CountRow & { bucket: unknown }>`select ${bucket} as bucket, ${counts} from usage_logs ${where} group by 1`.execute(db),
    sql<{ bucket: unknown; bin: unknown; n: unknown }>`select ${bucket} as bucket, ${binExpression()} as bin, count(*) as n
      from usage_logs ${where} group by 1, 2`.execute(db),
    sql<CountRow & { id: string | null; name: string | null }>`select model as id, model as name, ${counts}
      from usage_logs ${where} group by model order by requests desc, model limit ${sql.lit(top)}`.execute(db),
    sql<CountRow & { id: string | null; name: string | null }>`select key_id as id, max(key_name) as name, ${counts}
      from usage_logs ${where} group by key_id order by requests desc, key_id limit ${sql.lit(top)}`.execute(db),
  ]);

  const binsByBucket = new Map<number, number[]>();
  const allBins = LATENCY_BOUNDS.map(() => 0).concat(0);
  for (const row of histogram.rows) {
    const start = Number(row.bucket);
    const bins = binsByBucket.get(start) ?? LATENCY_BOUNDS.map(() => 0).concat(0);
    bins[Number(row.bin)]! += Number(row.n);
    allBins[Number(row.bin)]! += Number(row.n);
    binsByBucket.set(start, bins);
  }
  const countsByBucket = new Map(perBucket.rows.map((row) => [Number(row.bucket), toCounts(row)]));

  const series: UsageSeriesPoint[] = [];
  for (let start = first; start < query.to; start += bucketMs) {
    series.push({ start, ...(countsByBucket.get(start) ?? emptyCounts()), ...percentiles(binsByBucket.get(start)) });
  }
  const totals = series.reduce<Counts>((sum, point) => addCounts(sum, point), emptyCounts());
  return {
    series,
    totals: { ...totals, ...percentiles(allBins) },
    byModel: byModel.rows.map(toBreakdown),
    byKey: byKey.rows.map(toBreakdown),
  };
}

interface CountRow {
  requests: unknown;
  errors: unknown;
  input_tokens: unknown;
  output_tokens: unknown;
  cost_micros: unknown;
}

function whereClause(query: UsageSummaryQuery, from: number): RawBuilder<unknown> {
  const conditions = [sql`time >= ${from}`, sql`time < ${query.to}`];
  if (query.keyId !== undefined) conditions.push(sql`key_id = ${query.keyId}`);
  if (query.group !== undefined) conditions.push(sql`group_name = ${query.group}`);
  if (query.model !== undefined) conditions.push(sql`model = ${query.model}`);
  return sql`where ${sql.join(conditions, sql` and `)}`;
}

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

function toCounts(row: CountRow): Counts {
  return {
    requests: Number(row.requests),
    errors: Number(row.errors ?? 0),
    inputTokens: Number(row.input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    costMicros: Number(row.cost_micros ?? 0),
  };
}

function toBreakdown(row: CountRow & { id: string | null; name: string | null }): UsageBreakdownRow {
  return { id: row.id, name: row.name, ...toCounts(row) };
}

function emptyCounts(): Counts {
  return { requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, costMicros: 0 };
}

function addCounts(sum: Counts, point: Counts): Counts {
  return {
    requests: sum.requests + point.requests,
    errors: sum.errors + point.errors,
    inputTokens: sum.inputTokens + point.inputTokens,
    outputTokens: sum.outputTokens + point.outputTokens,
    costMicros: sum.costMicros + point.costMicros,
  };
}
