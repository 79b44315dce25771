import type { Kysely, Migration } from 'kysely';

/**
 * Stateful Responses (issue 17): turns kept for `previous_response_id`, `GET` and `DELETE
 * /v1/responses/{id}`. Every lookup names the key (`key_id`), so one key never sees another's.
 * `expires_at` bounds how long a turn is kept; rows past it are invisible and pruned.
 */
export const storedResponsesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('stored_responses')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('key_id', 'text', (column) => column.notNull())
      .addColumn('previous_response_id', 'text')
      .addColumn('holder', 'text', (column) => column.notNull())
      .addColumn('channel_id', 'text')
      .addColumn('upstream_key_hash', 'text')
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('input_json', 'text')
      .addColumn('response_json', 'text')
      .addColumn('size_bytes', 'bigint', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('stored_responses_expires').on('stored_responses').column('expires_at').execute();
    await db.schema.createIndex('stored_responses_key').on('stored_responses').columns(['key_id', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('stored_responses').execute();
  },
};
