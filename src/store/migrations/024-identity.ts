import type { Kysely, Migration } from 'kysely';

/**
 * Sign-in methods (issue 29): TOTP factors of account holders and admins (secret sealed with the
 * gateway secret, recovery codes hashed), one-time links of sign-up verification and password
 * reset (SHA-256 of the link's token only; consumed by a conditional update, so a link works
 * once on any number of instances), and the OIDC / GitHub providers (client secret sealed).
 */
export const identityMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('totp_factors')
      .addColumn('owner_kind', 'text', (column) => column.notNull())
      .addColumn('owner_id', 'text', (column) => column.notNull())
      .addColumn('secret_sealed', 'text', (column) => column.notNull())
      .addColumn('recovery_hashes', 'text', (column) => column.notNull())
      .addColumn('confirmed_at', 'bigint')
      .addColumn('last_step', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('totp_factors_pk', ['owner_kind', 'owner_id'])
      .execute();

    await db.schema
      .createTable('one_time_tokens')
      .addColumn('token_hash', 'text', (column) => column.primaryKey())
      .addColumn('purpose', 'text', (column) => column.notNull())
      .addColumn('email', 'text', (column) => column.notNull())
      .addColumn('payload', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('one_time_tokens_expires').on('one_time_tokens').column('expires_at').execute();

    await db.schema
      .createTable('sign_in_providers')
      .addColumn('name', 'text', (column) => column.primaryKey())
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('issuer', 'text', (column) => column.notNull())
      .addColumn('client_id', 'text', (column) => column.notNull())
      .addColumn('client_secret_sealed', 'text', (column) => column.notNull())
      .addColumn('audiences', 'text', (column) => column.notNull())
      .addColumn('api_base', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('sign_in_providers').execute();
    await db.schema.dropTable('one_time_tokens').execute();
    await db.schema.dropTable('totp_factors').execute();
  },
};
