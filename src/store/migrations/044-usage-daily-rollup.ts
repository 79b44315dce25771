import type { Kysely, Migration } from 'kysely';
import { createUsageRollup } from './043-usage-hourly-rollup.ts';

/**
 * `usage_daily`: the same rollup per UTC day. A month by day from the hourly table still read
 * 720 rows per key × model pair (144k for 1M seeded rows, ~1 s on a loaded SQLite); by day it is 30.
 */
export const usageDailyRollupMigration: Migration = {
  async up(db: Kysely<any>) {
    await createUsageRollup(db, { table: 'usage_daily', periodMs: 86_400_000 });
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('usage_daily').execute();
  },
};
