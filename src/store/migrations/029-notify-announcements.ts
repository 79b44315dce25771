import type { Kysely, Migration } from 'kysely';

/** The operator's notices (issue 30): shown on the portal home and to key holders as JSON. */
export const announcementsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('announcements')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('body', 'text', (column) => column.notNull())
      // `all`, `group:<name>` or `account:<user id>`.
      .addColumn('audience', 'text', (column) => column.notNull())
      .addColumn('ends_at', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('announcements').execute();
  },
};
