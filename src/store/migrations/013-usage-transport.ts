import type { Kysely, Migration } from 'kysely';

/**
 * How a generation request arrived: `http`, or `websocket` for a turn of a Responses WebSocket
 * (each `response.create` on the socket is its own usage row). Existing rows were all HTTP.
 */
export const usageTransportMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('usage_logs')
      .addColumn('transport', 'text', (column) => column.notNull().defaultTo('http'))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('usage_logs').dropColumn('transport').execute();
  },
};
