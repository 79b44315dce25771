import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';
import type { UsageAggregateQuery, UsageAggregateRow } from '../usage-queries.ts';

const MS_PER_DAY = 86_400_000;

/**
 * Totals per UTC day × key or model. Integer division of epoch ms by a day is the UTC day
 * index in both SQLite and PostgreSQL, so one query serves both dialects.
 */
export async function aggregateUsage(db: Kysely<DatabaseSchema>, query: UsageAggregateQuery): Promise<UsageAggregateRow[]> {
  const day = sql<number>`time / ${sql.lit(MS_PER_DAY)}`;
  const subject =
    query.by === 'key'
      ? sql<string | null>`key_id`
      : query.by === 'payer'
        ? // What paid, for reconciliation: `subscription:<id>`, `wallet:<user id>`, `key_balance:<key id>`.
          sql<
            string | null
          >`case when paid_by = 'subscription' then 'subscription:' || subscription_id when paid_by = 'wallet' then 'wallet:' || user_id when paid_by = 'key_balance' then 'key_balance:' || key_id else null end`
        : sql<string | null>`model`;
  let select = db
    .selectFrom('usage_logs')
    .select([
      day.as('day_index'),
      subject.as('subject'),
      sql<number>`count(*)`.as('requests'),
      sql<number>`sum(case when status >= 400 then 1 else 0 end)`.as('errors'),
      sql<number>`sum(input_tokens)`.as('input_tokens'),
      sql<number>`sum(output_tokens)`.as('output_tokens'),
      sql<number>`sum(cache_read_tokens)`.as('cache_read_tokens'),
      sql<number>`sum(cache_write_tokens)`.as('cache_write_tokens'),
      sql<number>`sum(reasoning_tokens)`.as('reasoning_tokens'),
      sql<number>`sum(cost_micros)`.as('cost_micros'),
    ])
    .where('time', '>=', query.from)
    .where('time', '<', query.to);
  if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
  if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
  const rows = await select.groupBy([day, subject]).execute();
  return rows.map(toAggregateRow).sort(compareAggregateRows);
}

interface AggregateColumns {
  day_index: number | string;
  subject: string | null;
  requests: number | string;
  errors: number | string | null;
  input_tokens: number | string | null;
  output_tokens: number | string | null;
  cache_read_tokens: number | string | null;
  cache_write_tokens: number | string | null;
  reasoning_tokens: number | string | null;
  cost_micros: number | string | null;
}

// PostgreSQL returns bigint sums and counts as strings; SQLite as numbers.
function toAggregateRow(row: AggregateColumns): UsageAggregateRow {
  return {
    day: new Date(Number(row.day_index) * MS_PER_DAY).toISOString().slice(0, 10),
    subject: row.subject,
    requests: Number(row.requests),
    errors: Number(row.errors ?? 0),
    inputTokens: Number(row.input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    cacheReadTokens: Number(row.cache_read_tokens ?? 0),
    cacheWriteTokens: Number(row.cache_write_tokens ?? 0),
    reasoningTokens: Number(row.reasoning_tokens ?? 0),
    costMicros: Number(row.cost_micros ?? 0),
  };
}

// Sorted here rather than in SQL so both dialects order nulls and text the same way.
function compareAggregateRows(a: UsageAggregateRow, b: UsageAggregateRow): number {
  if (a.day !== b.day) return a.day < b.day ? -1 : 1;
  if (a.subject === b.subject) return 0;
  if (a.subject === null) return 1;
  if (b.subject === null) return -1;
  return a.subject < b.subject ? -1 : 1;
}
