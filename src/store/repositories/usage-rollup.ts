import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { UsageLogEntry } from '../../domain/usage-log-entry.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { LATENCY_BOUNDS } from './latency-bins.ts';

/**
 * usage_logs summed per UTC hour (`usage_hourly`, migration 043) and per UTC day (`usage_daily`,
 * 044) × key × model × group, with the latency histogram's bins as columns, so the usage summary
 * reads one row per period and pair instead of every request (a month of 1M rows took 1.6 s).
 * The usage writer adds each slice's rows in the same transaction as their insert, counting only
 * rows actually inserted (a retried slice adds nothing twice); a missing key, model or group is
 * stored as '' (primary-key columns cannot be null).
 */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export interface Rollup {
  table: 'usage_hourly' | 'usage_daily';
  periodMs: number;
}
/** Coarsest first: the summary takes each range from the coarsest rollup that covers it. */
export const ROLLUPS: readonly Rollup[] = [
  { table: 'usage_daily', periodMs: DAY_MS },
  { table: 'usage_hourly', periodMs: HOUR_MS },
];

export const BIN_COLUMNS = LATENCY_BOUNDS.map((_, index) => `lat_${index}`).concat(`lat_${LATENCY_BOUNDS.length}`);
export const SUM_COLUMNS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros', ...BIN_COLUMNS];
const KEY_COLUMNS = ['period_start', 'key_id', 'model', 'group_name'];
const INSERT_COLUMNS = [...KEY_COLUMNS, 'key_name', ...SUM_COLUMNS];

/** What a slice adds to one rollup row (period × key × model × group). */
export interface RollupGroup {
  start: number;
  keyId: string;
  model: string;
  group: string;
  keyName: string | null;
  /** In SUM_COLUMNS' order: requests, errors, input, output, cost, then one count per latency bin. */
  sums: number[];
}

/** The latency bin of a request: the first bound it is under, or the open last bin. */
export function latencyBin(latencyMs: number): number {
  for (let index = 0; index < LATENCY_BOUNDS.length; index += 1) if (latencyMs < LATENCY_BOUNDS[index]!) return index;
  return LATENCY_BOUNDS.length;
}

/** Sums the given (inserted) rows per rollup row, sorted by key so concurrent writers lock in one order. */
export function groupForRollup(entries: readonly UsageLogEntry[], periodMs: number): RollupGroup[] {
  const groups = new Map<string, RollupGroup>();
  for (const entry of entries) {
    const start = Math.floor(entry.time / periodMs) * periodMs;
    const keyId = entry.keyId ?? '';
    const model = entry.model ?? '';
    const group = entry.group ?? '';
    const id = `${start}\u0001${keyId}\u0001${model}\u0001${group}`;
    let sum = groups.get(id);
    if (sum === undefined) {
      sum = { start, keyId, model, group, keyName: null, sums: new Array<number>(SUM_COLUMNS.length).fill(0) };
      groups.set(id, sum);
    }
    if (entry.keyName !== null && (sum.keyName === null || entry.keyName > sum.keyName)) sum.keyName = entry.keyName;
    const sums = sum.sums;
    sums[0]! += 1;
    if (entry.status >= 400) sums[1]! += 1;
    sums[2]! += entry.inputTokens;
    sums[3]! += entry.outputTokens;
    sums[4]! += entry.costMicros;
    sums[5 + latencyBin(entry.latencyMs)]! += 1;
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
}

/** `INSERT … ON CONFLICT DO UPDATE` adding each sum; the key name kept is the greatest seen, as max(key_name) over the rows. */
function upsertSql(table: string, greatest: 'max' | 'greatest', values: string): string {
  const adds = SUM_COLUMNS.map((column) => `${column} = ${table}.${column} + excluded.${column}`);
  const name = `key_name = ${greatest}(coalesce(${table}.key_name, excluded.key_name), coalesce(excluded.key_name, ${table}.key_name))`;
  return `INSERT INTO ${table} (${INSERT_COLUMNS.join(', ')}) VALUES ${values} ON CONFLICT (${KEY_COLUMNS.join(', ')}) DO UPDATE SET ${[...adds, name].join(', ')}`;
}

/** The SQLite upserts for every rollup, prepared on first use (the tables exist only after the migrations). */
export function createSqliteRollupUpsert(sqlite: BetterSqlite3.Database): (inserted: readonly UsageLogEntry[]) => void {
  let statements: BetterSqlite3.Statement[] | undefined;
  const placeholders = `(${INSERT_COLUMNS.map(() => '?').join(', ')})`;
  return (inserted) => {
    if (inserted.length === 0) return;
    statements ??= ROLLUPS.map((rollup) => sqlite.prepare(upsertSql(rollup.table, 'max', placeholders)));
    ROLLUPS.forEach((rollup, index) => {
      const statement = statements![index]!;
      for (const group of groupForRollup(inserted, rollup.periodMs)) {
        statement.run(group.start, group.keyId, group.model, group.group, group.keyName, ...group.sums);
      }
    });
  };
}

/** The PostgreSQL upserts: one statement per rollup for the slice's rows, inside the insert's transaction. */
export async function upsertRollupPostgres(transaction: Transaction<DatabaseSchema>, inserted: readonly UsageLogEntry[]): Promise<void> {
  if (inserted.length === 0) return;
  for (const rollup of ROLLUPS) {
    const values: unknown[] = [];
    const tuples = groupForRollup(inserted, rollup.periodMs).map((group) => {
      const at = values.length;
      values.push(group.start, group.keyId, group.model, group.group, group.keyName, ...group.sums);
      return `(${INSERT_COLUMNS.map((_, index) => `$${at + index + 1}`).join(', ')})`;
    });
    await transaction.executeQuery(CompiledQuery.raw(upsertSql(rollup.table, 'greatest', tuples.join(', ')), values));
  }
}

/** Per-row SQL for each sum column over usage_logs (the backfill, and the summary's raw edge). */
export function rawSumExpressions(): RawBuilder<unknown>[] {
  const bins = BIN_COLUMNS.map((_, index) => {
    const lower = index === 0 ? sql`1 = 1` : sql`latency_ms >= ${sql.lit(LATENCY_BOUNDS[index - 1]!)}`;
    const upper = index < LATENCY_BOUNDS.length ? sql`latency_ms < ${sql.lit(LATENCY_BOUNDS[index]!)}` : sql`1 = 1`;
    return sql`case when ${lower} and ${upper} then 1 else 0 end`;
  });
  return [sql`1`, sql`case when status >= 400 then 1 else 0 end`, sql`input_tokens`, sql`output_tokens`, sql`cost_micros`, ...bins];
}

/**
 * Sums `[from, to)` (whole periods) of usage_logs into the rollup again: the migrations'
 * backfill, pruning's cut period, and scripts/seed-usage.ts after it writes rows directly.
 */
export async function rebuildUsageRollup(db: Kysely<any>, rollup: Rollup, from = 0, to = Number.MAX_SAFE_INTEGER): Promise<void> {
  const start = sql`(time / ${sql.lit(rollup.periodMs)}) * ${sql.lit(rollup.periodMs)}`;
  const sums = rawSumExpressions().map((expression, index) => sql`sum(${expression}) as ${sql.ref(SUM_COLUMNS[index]!)}`);
  const rebuild = async (transaction: Kysely<any>) => {
    await sql`delete from ${sql.table(rollup.table)} where period_start >= ${sql.lit(from)} and period_start < ${sql.lit(to)}`.execute(transaction);
    await sql`insert into ${sql.table(rollup.table)} (${sql.raw(INSERT_COLUMNS.join(', '))})
      select ${start}, coalesce(key_id, ''), coalesce(model, ''), coalesce(group_name, ''), max(key_name), ${sql.join(sums)}
      from usage_logs where time >= ${sql.lit(from)} and time < ${sql.lit(to)} group by 1, 2, 3, 4`.execute(transaction);
  };
  // Migrations already run in a transaction on PostgreSQL.
  await (db.isTransaction ? rebuild(db) : db.transaction().execute(rebuild));
}
