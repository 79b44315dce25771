import type { Kysely, Migration } from 'kysely';

/**
 * Charge batches already applied, by the writer's batch id. A commit whose acknowledgement is
 * lost (the connection drops after PostgreSQL committed) looks like a failure to the writer,
 * which retries the same batch; the id makes that retry a no-op instead of a second charge.
 * Rows are only needed while a retry can still come, so they are pruned after a few days.
 */
export const appliedBatchesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('applied_batches')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('applied_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('applied_batches_time').on('applied_batches').column('applied_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('applied_batches').execute();
  },
};
