import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';
import type { UsageSummaryQuery } from '../usage-queries.ts';
import { type CountRow, type Counts, type SummaryParts, toBreakdown, toCounts } from './summary-rows.ts';
import { BIN_COLUMNS, ROLLUPS, type Rollup, rawSumExpressions, SUM_COLUMNS } from './usage-rollup.ts';

/**
 * The summary's parts when its buckets are whole hours: whole days and hours from the rollups
 * (one row per period × key × model × group) and only the partial hour at the end from
 * usage_logs, projected to the rollups' shape so one set of queries reads them all. The
 * answer equals the one read from usage_logs alone (test/store/conformance/usage-rollup-conformance.ts).
 */
export async function summaryPartsFromRollup(
  db: Kysely<DatabaseSchema>,
  query: UsageSummaryQuery,
  range: { first: number; top: number },
): Promise<SummaryParts> {
  const source = rollupSource(query, range.first);
  const bucketMs = sql.lit(query.bucketMs);
  const counts = sql`sum(requests) as requests, sum(errors) as errors, sum(input_tokens) as input_tokens,
    sum(output_tokens) as output_tokens, sum(cost_micros) as cost_micros`;
  const bins = sql.join(BIN_COLUMNS.map((column) => sql`sum(${sql.ref(column)}) as ${sql.ref(column)}`));
  const top = sql.lit(range.top);
  type Named = CountRow & { id: string | null; name: string | null };
  // Three small groupings rather than one by bucket × key × model: that one spilled
  // PostgreSQL's hash table to disk (6,200 groups × 34 sums for a month by day).
  const [perBucket, byModel, byKey] = await Promise.all([
    sql<CountRow & Record<string, unknown>>`select (t / ${bucketMs}) * ${bucketMs} as bucket, ${counts}, ${bins} from ${source} group by 1`.execute(db),
    // '' is how the rollup stores a missing model or key; the answer says null, as usage_logs would.
    sql<Named>`select nullif(model, '') as id, nullif(model, '') as name, ${counts} from ${source}
      group by model order by requests desc, id limit ${top}`.execute(db),
    sql<Named>`select nullif(key_id, '') as id, max(key_name) as name, ${counts} from ${source}
      group by key_id order by requests desc, id limit ${top}`.execute(db),
  ]);
  const countsByBucket = new Map<number, Counts>();
  const binsByBucket = new Map<number, number[]>();
  for (const row of perBucket.rows) {
    const start = Number(row.bucket);
    countsByBucket.set(start, toCounts(row));
    binsByBucket.set(
      start,
      BIN_COLUMNS.map((column) => Number(row[column] ?? 0)),
    );
  }
  return { countsByBucket, binsByBucket, byModel: byModel.rows.map(toBreakdown), byKey: byKey.rows.map(toBreakdown) };
}

/**
 * The range cut into segments, each from the coarsest rollup whose periods are whole buckets:
 * for day buckets, whole days from usage_daily, then the last day's whole hours from
 * usage_hourly, then the last partial hour from usage_logs. Undefined when no rollup applies.
 */
export function rollupSegments(
  first: number,
  to: number,
  bucketMs: number,
): { segments: Array<{ rollup: Rollup; from: number; to: number }>; rawFrom: number } | undefined {
  const segments: Array<{ rollup: Rollup; from: number; to: number }> = [];
  let cursor = first;
  for (const rollup of ROLLUPS) {
    if (bucketMs % rollup.periodMs !== 0) continue;
    const end = Math.floor(to / rollup.periodMs) * rollup.periodMs;
    if (end > cursor) segments.push({ rollup, from: cursor, to: end });
    cursor = Math.max(cursor, end);
  }
  return segments.length === 0 ? undefined : { segments, rawFrom: cursor };
}

/** The rows to sum, as a derived table `(t, key_id, key_name, model, group_name, <sums>)`. */
function rollupSource(query: UsageSummaryQuery, first: number): RawBuilder<unknown> {
  const cut = rollupSegments(first, query.to, query.bucketMs)!;
  const sums = sql.join(SUM_COLUMNS.map((column) => sql.ref(column)));
  const parts = cut.segments.map(
    ({ rollup, from, to }) => sql`select period_start as t, key_id, key_name, model, group_name, ${sums} from ${sql.table(rollup.table)}
    where period_start >= ${sql.lit(from)} and period_start < ${sql.lit(to)}${filters(query)}`,
  );
  if (cut.rawFrom < query.to) {
    const raw = rawSumExpressions().map((expression, index) => sql`${expression} as ${sql.ref(SUM_COLUMNS[index]!)}`);
    parts.push(sql`select time as t, coalesce(key_id, '') as key_id, key_name, coalesce(model, '') as model,
    coalesce(group_name, '') as group_name, ${sql.join(raw)} from usage_logs
    where time >= ${sql.lit(cut.rawFrom)} and time < ${sql.lit(query.to)}${filters(query)}`);
  }
  return sql`(${sql.join(parts, sql` union all `)}) as source`;
}

function filters(query: UsageSummaryQuery): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [];
  if (query.keyId !== undefined) conditions.push(sql` and key_id = ${query.keyId}`);
  if (query.group !== undefined) conditions.push(sql` and group_name = ${query.group}`);
  if (query.model !== undefined) conditions.push(sql` and model = ${query.model}`);
  return sql.join(conditions, sql``);
}
