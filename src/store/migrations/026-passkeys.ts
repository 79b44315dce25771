import type { Kysely, Migration } from 'kysely';

/**
 * Passkeys (issue 29): WebAuthn credentials of account holders and admins (the public key only;
 * the private key never leaves the authenticator), with the signature counter a cloned
 * authenticator would betray; and how each console session signed in, since a passkey sign-in
 * is two factors on its own and so satisfies "two-factor for every admin".
 */
export const passkeysMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('credential_id', 'text', (column) => column.notNull().unique())
      .addColumn('owner_kind', 'text', (column) => column.notNull())
      .addColumn('owner_id', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('public_key', 'text', (column) => column.notNull())
      .addColumn('counter', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('transports', 'text', (column) => column.notNull())
      .addColumn('backed_up', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('passkeys_owner').on('passkeys').columns(['owner_kind', 'owner_id']).execute();
    await db.schema.alterTable('admin_sessions').addColumn('sign_in_method', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('admin_sessions').dropColumn('sign_in_method').execute();
    await db.schema.dropTable('passkeys').execute();
  },
};
