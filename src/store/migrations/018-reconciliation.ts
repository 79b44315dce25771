import type { Kysely, Migration } from 'kysely';

/**
 * What an upstream billed, imported from its usage export (issue 27): one row per channel × UTC
 * day × model, replaced when the same day is imported again. Compared with the ledger's cost.
 */
export const reconciliationMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('upstream_bills')
      .addColumn('channel_id', 'text', (column) => column.notNull())
      .addColumn('day', 'text', (column) => column.notNull())
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('cost_micros', 'bigint', (column) => column.notNull())
      .addColumn('tokens', 'text', (column) => column.notNull())
      .addColumn('source', 'text', (column) => column.notNull())
      .addColumn('imported_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('upstream_bills_pk', ['channel_id', 'day', 'model'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('upstream_bills').execute();
  },
};
