import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';
import type { ChannelWindowRow, SpendWindowRow, StatusFiguresRow, StatusWindowCounts } from '../usage-queries.ts';
import { binExpression, LATENCY_BOUNDS, percentiles } from './latency-bins.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The status page's figures per group × model: counts over 24 h, 7 d and 30 d to `now`, and the
 * time to first byte of the last 24 h's successes (streamed: first byte; whole replies: latency).
 */
export async function statusFigures(db: Kysely<DatabaseSchema>, now: number): Promise<StatusFiguresRow[]> {
  const since = (ms: number) => sql.lit(now - ms);
  const window = (from: ReturnType<typeof since>, name: string) => sql`
    sum(case when time >= ${from} then 1 else 0 end) as ${sql.ref(`${name}_n`)},
    sum(case when time >= ${from} and status < 400 then 1 else 0 end) as ${sql.ref(`${name}_ok`)},
    sum(case when time >= ${from} and status >= 400 and status < 500 and status <> 429 then 1 else 0 end) as ${sql.ref(`${name}_client`)}`;
  const where = sql`where time >= ${sql.lit(now - 30 * DAY)} and time < ${sql.lit(now)} and model is not null and group_name is not null`;
  const [counts, bins] = await Promise.all([
    sql<Record<string, unknown>>`select group_name, model, ${window(since(DAY), 'd1')}, ${window(since(7 * DAY), 'd7')}, ${window(since(30 * DAY), 'd30')}
      from usage_logs ${where} group by group_name, model order by group_name, model`.execute(db),
    sql<{
      group_name: string;
      model: string;
      bin: unknown;
      n: unknown;
    }>`select group_name, model, ${binExpression(sql`coalesce(ttft_ms, latency_ms)`)} as bin, count(*) as n
      from usage_logs ${where} and time >= ${since(DAY)} and status < 400 group by 1, 2, 3`.execute(db),
  ]);
  const binsOf = new Map<string, number[]>();
  for (const row of bins.rows) {
    const id = `${row.group_name}\u0000${row.model}`;
    const list = binsOf.get(id) ?? LATENCY_BOUNDS.map(() => 0).concat(0);
    list[Number(row.bin)]! += Number(row.n);
    binsOf.set(id, list);
  }
  return counts.rows.map((row) => {
    const take = (name: string): StatusWindowCounts => ({
      requests: Number(row[`${name}_n`] ?? 0),
      succeeded: Number(row[`${name}_ok`] ?? 0),
      clientErrors: Number(row[`${name}_client`] ?? 0),
    });
    const { latencyP50Ms, latencyP95Ms } = percentiles(binsOf.get(`${row.group_name}\u0000${row.model}`));
    return {
      group: String(row.group_name),
      model: String(row.model),
      windows: { '24h': take('d1'), '7d': take('d7'), '30d': take('d30') },
      ttfbP50Ms: latencyP50Ms,
      ttfbP95Ms: latencyP95Ms,
    };
  });
}

/**
 * Requests, failures (5xx, 429) and the time to first byte p95 of the answered ones (first byte when
 * streamed, the whole reply otherwise) per channel in [from, to): the error-rate and TTFB alerts' input.
 */
export async function channelWindow(db: Kysely<DatabaseSchema>, from: number, to: number): Promise<ChannelWindowRow[]> {
  const where = sql`where time >= ${sql.lit(from)} and time < ${sql.lit(to)} and channel_id is not null`;
  const [counts, bins] = await Promise.all([
    sql<{ channel_id: string; n: unknown; failed: unknown }>`select channel_id, count(*) as n,
      sum(case when status >= 500 or status = 429 then 1 else 0 end) as failed
      from usage_logs ${where} group by channel_id`.execute(db),
    sql<{ channel_id: string; bin: unknown; n: unknown }>`select channel_id, ${binExpression(sql`coalesce(ttft_ms, latency_ms)`)} as bin, count(*) as n
      from usage_logs ${where} and status < 400 group by 1, 2`.execute(db),
  ]);
  const binsOf = new Map<string, number[]>();
  for (const row of bins.rows) {
    const list = binsOf.get(row.channel_id) ?? LATENCY_BOUNDS.map(() => 0).concat(0);
    list[Number(row.bin)]! += Number(row.n);
    binsOf.set(row.channel_id, list);
  }
  return counts.rows.map((row) => {
    const channelBins = binsOf.get(row.channel_id);
    return {
      channelId: row.channel_id,
      requests: Number(row.n),
      failed: Number(row.failed ?? 0),
      answered: channelBins?.reduce((sum, n) => sum + n, 0) ?? 0,
      ttfbP95Ms: percentiles(channelBins).latencyP95Ms,
    };
  });
}

/** What each key (with its account) spent in [from, to): the spend-spike alert's input. */
export async function spendWindow(db: Kysely<DatabaseSchema>, from: number, to: number): Promise<SpendWindowRow[]> {
  const result = await sql<{ key_id: string; user_id: string | null; cost: unknown }>`select key_id, max(user_id) as user_id, sum(cost_micros) as cost
    from usage_logs where time >= ${sql.lit(from)} and time < ${sql.lit(to)} and key_id is not null group by key_id`.execute(db);
  return result.rows.map((row) => ({ keyId: row.key_id, userId: row.user_id, costMicros: Number(row.cost ?? 0) }));
}
