import type { Kysely, Migration } from 'kysely';

/**
 * Sessions people can see and end (issue 29): the device (User-Agent) a session signed in from
 * and when it was last used, for the portal's and the console's sessions alike.
 */
export const sessionDevicesMigration: Migration = {
  async up(db: Kysely<any>) {
    for (const table of ['account_sessions', 'admin_sessions']) {
      await db.schema.alterTable(table).addColumn('user_agent', 'text').execute();
      await db.schema.alterTable(table).addColumn('last_seen_at', 'bigint').execute();
    }
  },
  async down(db: Kysely<any>) {
    for (const table of ['account_sessions', 'admin_sessions']) {
      await db.schema.alterTable(table).dropColumn('last_seen_at').execute();
      await db.schema.alterTable(table).dropColumn('user_agent').execute();
    }
  },
};
