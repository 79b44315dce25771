import type { Kysely, Migration } from 'kysely';

/**
 * Issue 27: `ledger_attempts.raw_usage` now holds the upstream's own usage object (JSON text, at
 * most 4,096 characters); this flag says the object was longer and was cut there.
 */
export const ledgerRawUsageMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('ledger_attempts')
      .addColumn('raw_usage_truncated', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('ledger_attempts').dropColumn('raw_usage_truncated').execute();
  },
};
