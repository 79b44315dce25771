import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';
import type { UsageSeriesPoint, UsageSummary, UsageSummaryQuery } from '../usage-queries.ts';
import { binExpression, percentiles } from './latency-bins.ts';
import { type CountRow, type Counts, emptyBins, type SummaryParts, toBreakdown, toCounts } from './summary-rows.ts';
import { rollupSegments, summaryPartsFromRollup } from './summarize-usage-rollup.ts';

const MAX_BUCKETS = 2000;
const DEFAULT_TOP = 10;

export async function summarizeUsage(db: Kysely<DatabaseSchema>, query: UsageSummaryQuery, options: { rollup?: boolean } = {}): Promise<UsageSummary> {
  const { bucketMs } = query;
  if (!Number.isSafeInteger(bucketMs) || bucketMs < 1) throw new RangeError(`bucketMs must be a positive integer, got ${bucketMs}`);
  const first = Math.floor(query.from / bucketMs) * bucketMs;
  if (query.to <= first) throw new RangeError('to must be later than from');
  if ((query.to - first) / bucketMs > MAX_BUCKETS) throw new RangeError(`at most ${MAX_BUCKETS} buckets per summary`);
  const top = query.top ?? DEFAULT_TOP;
  // Whole days and hours come from the rollups when every bucket is made of them.
  const parts =
    options.rollup !== false && rollupSegments(first, query.to, bucketMs) !== undefined
      ? await summaryPartsFromRollup(db, query, { first, top })
      : await summaryPartsFromRows(db, query, first, top);

  const allBins = emptyBins();
  for (const bins of parts.binsByBucket.values()) for (let index = 0; index < bins.length; index += 1) allBins[index]! += bins[index]!;
  const series: UsageSeriesPoint[] = [];
  for (let start = first; start < query.to; start += bucketMs) {
    series.push({ start, ...(parts.countsByBucket.get(start) ?? emptyCounts()), ...percentiles(parts.binsByBucket.get(start)) });
  }
  const totals = series.reduce<Counts>((sum, point) => addCounts(sum, point), emptyCounts());
  return { series, totals: { ...totals, ...percentiles(allBins) }, byModel: parts.byModel, byKey: parts.byKey };
}

/** Every part from usage_logs itself: buckets that are not whole hours, or a range inside one hour. */
async function summaryPartsFromRows(db: Kysely<DatabaseSchema>, query: UsageSummaryQuery, first: number, top: number): Promise<SummaryParts> {
  const { bucketMs } = query;
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
  for (const row of histogram.rows) {
    const start = Number(row.bucket);
    const bins = binsByBucket.get(start) ?? emptyBins();
    bins[Number(row.bin)]! += Number(row.n);
    binsByBucket.set(start, bins);
  }
  return {
    countsByBucket: new Map(perBucket.rows.map((row) => [Number(row.bucket), toCounts(row)])),
    binsByBucket,
    byModel: byModel.rows.map(toBreakdown),
    byKey: byKey.rows.map(toBreakdown),
  };
}

function whereClause(query: UsageSummaryQuery, from: number): RawBuilder<unknown> {
  const conditions = [sql`time >= ${from}`, sql`time < ${query.to}`];
  if (query.keyId !== undefined) conditions.push(sql`key_id = ${query.keyId}`);
  if (query.group !== undefined) conditions.push(sql`group_name = ${query.group}`);
  if (query.model !== undefined) conditions.push(sql`model = ${query.model}`);
  return sql`where ${sql.join(conditions, sql` and `)}`;
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
