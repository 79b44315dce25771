import type { Kysely, Migration } from 'kysely';

/**
 * Operator accounts with roles (issue 29): the people of the console, their sessions (the same
 * model as the portal's account_sessions) and the scoped tokens they mint for automation. Names
 * and e-mails are stored lower-cased so the unique indexes match sign-in's case-insensitive login.
 */
export const adminAccountsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('admins')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull().unique())
      .addColumn('email', 'text', (column) => column.notNull().unique())
      .addColumn('role', 'text', (column) => column.notNull())
      .addColumn('password_hash', 'text', (column) => column.notNull())
      .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('admin_sessions')
      // SHA-256 of the cookie value: a copy of the table does not let anyone sign in.
      .addColumn('token_hash', 'text', (column) => column.primaryKey())
      .addColumn('admin_id', 'text', (column) => column.notNull())
      .addColumn('csrf_token', 'text', (column) => column.notNull())
      .addColumn('client_ip', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('admin_sessions_admin').on('admin_sessions').column('admin_id').execute();

    await db.schema
      .createTable('admin_tokens')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('role', 'text', (column) => column.notNull())
      .addColumn('token_hash', 'text', (column) => column.notNull().unique())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('admin_tokens').execute();
    await db.schema.dropTable('admin_sessions').execute();
    await db.schema.dropTable('admins').execute();
  },
};
