import type { Kysely, Migration } from 'kysely';

/**
 * Notifications (issue 30): channels (secrets sealed), rules, the claims that deduplicate and
 * rate-limit each rule across instances, and the outbox every message waits in until it is sent
 * (so a restart loses nothing; a row is claimed before it is sent, so two instances never both send it).
 */
export const notificationsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('notification_channels')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner_user_id', 'text')
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('url', 'text')
      .addColumn('secret_sealed', 'text')
      .addColumn('to_address', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('notification_rules')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner_user_id', 'text')
      .addColumn('event', 'text', (column) => column.notNull())
      .addColumn('threshold', 'double precision')
      .addColumn('window_seconds', 'integer')
      .addColumn('channels', 'text', (column) => column.notNull())
      .addColumn('audience', 'text', (column) => column.notNull())
      .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('notification_claims')
      .addColumn('rule_id', 'text', (column) => column.notNull())
      .addColumn('claim_key', 'text', (column) => column.notNull())
      .addColumn('count', 'integer', (column) => column.notNull())
      .addColumn('until_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('notification_claims_pk', ['rule_id', 'claim_key'])
      .execute();

    await db.schema
      .createTable('notification_outbox')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('rule_id', 'text')
      .addColumn('channel_id', 'text', (column) => column.notNull())
      .addColumn('event', 'text', (column) => column.notNull())
      .addColumn('payload', 'text', (column) => column.notNull())
      .addColumn('recipient', 'text')
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', (column) => column.notNull())
      .addColumn('claimed_until', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('sent_at', 'bigint')
      .execute();
    await db.schema.createIndex('notification_outbox_due').on('notification_outbox').columns(['status', 'next_attempt_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('notification_outbox').execute();
    await db.schema.dropTable('notification_claims').execute();
    await db.schema.dropTable('notification_rules').execute();
    await db.schema.dropTable('notification_channels').execute();
  },
};
