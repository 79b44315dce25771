import type { Kysely, Migration } from 'kysely';

/**
 * Circuit openings and closings (issue 30), the status page's incidents. Each instance records
 * its own transitions; the status page merges overlapping ones, so duplicates do no harm.
 */
export const circuitHistoryMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('circuit_history')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('channel_id', 'text', (column) => column.notNull())
      .addColumn('model', 'text')
      .addColumn('state', 'text', (column) => column.notNull())
      .addColumn('reason', 'text')
      .addColumn('at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('circuit_history_at').on('circuit_history').column('at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('circuit_history').execute();
  },
};
