import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';
import { BIN_COLUMNS, rebuildUsageRollup, type Rollup } from '../repositories/usage-rollup.ts';

/**
 * A rollup table (usage-rollup.ts): usage_logs summed per period × key × model × group, with
 * one column per latency bin, filled from the rows already logged. On SQLite it is clustered on
 * its key (WITHOUT ROWID), so a range of periods is one contiguous read.
 */
export async function createUsageRollup(db: Kysely<any>, rollup: Rollup): Promise<void> {
  let table = db.schema
    .createTable(rollup.table)
    .addColumn('period_start', 'bigint', (column) => column.notNull())
    .addColumn('key_id', 'text', (column) => column.notNull())
    .addColumn('model', 'text', (column) => column.notNull())
    .addColumn('group_name', 'text', (column) => column.notNull())
    .addColumn('key_name', 'text');
  // Counts as integer (PostgreSQL sums them in bigint), tokens and cost as bigint (summed in numeric).
  for (const column of ['requests', 'errors', ...BIN_COLUMNS]) table = table.addColumn(column, 'integer', (definition) => definition.notNull().defaultTo(0));
  for (const column of ['input_tokens', 'output_tokens', 'cost_micros']) {
    table = table.addColumn(column, 'bigint', (definition) => definition.notNull().defaultTo(0));
  }
  table = table.addPrimaryKeyConstraint(`${rollup.table}_pkey`, ['period_start', 'key_id', 'model', 'group_name']);
  if (db.getExecutor().adapter instanceof SqliteAdapter) table = table.modifyEnd(sql`without rowid`);
  await table.execute();
  await rebuildUsageRollup(db, rollup);
}

/** `usage_hourly`: the usage summary reads whole hours from it (the writer keeps it). */
export const usageHourlyRollupMigration: Migration = {
  async up(db: Kysely<any>) {
    await createUsageRollup(db, { table: 'usage_hourly', periodMs: 3_600_000 });
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('usage_hourly').execute();
  },
};
