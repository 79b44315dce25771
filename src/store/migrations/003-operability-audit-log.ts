import type { Kysely, Migration } from 'kysely';

/**
 * The audit log: one row per admin change (who, what, the record before and after, as the
 * admin API shows it, so secrets are already masked). Append-only; ids sort by time.
 */
export const operabilityAuditLogMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('time', 'bigint', (column) => column.notNull())
      .addColumn('actor', 'text', (column) => column.notNull())
      .addColumn('client_ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('request_id', 'text')
      .addColumn('action', 'text', (column) => column.notNull())
      .addColumn('target_kind', 'text', (column) => column.notNull())
      .addColumn('target_id', 'text', (column) => column.notNull())
      .addColumn('target_name', 'text')
      .addColumn('before', 'text')
      .addColumn('after', 'text')
      .execute();
    await db.schema.createIndex('audit_log_time').on('audit_log').columns(['time', 'id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('audit_log').execute();
  },
};
