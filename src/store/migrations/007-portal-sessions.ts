import type { Kysely, Migration } from 'kysely';

/**
 * The account portal (issue 16): browser sessions of accounts, and the operator's manual wallet
 * adjustments with their notes (the audit trail of top-ups). Written against `Kysely<any>` with
 * types both SQLite and PostgreSQL accept. Users live in issue 15's tables; no foreign key is
 * declared to them so this migration does not depend on the order migrations run in.
 */
export const portalSessionsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('account_sessions')
      // SHA-256 of the cookie value: a copy of the table does not let anyone sign in.
      .addColumn('token_hash', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('csrf_token', 'text', (column) => column.notNull())
      .addColumn('client_ip', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('account_sessions_user').on('account_sessions').column('user_id').execute();
    await db.schema.createIndex('account_sessions_expires').on('account_sessions').column('expires_at').execute();

    await db.schema
      .createTable('wallet_adjustments')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('amount_micros', 'bigint', (column) => column.notNull())
      .addColumn('note', 'text', (column) => column.notNull())
      .addColumn('balance_after_micros', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('wallet_adjustments_user').on('wallet_adjustments').columns(['user_id', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('wallet_adjustments').execute();
    await db.schema.dropTable('account_sessions').execute();
  },
};
