import type { Kysely, Migration } from 'kysely';

/**
 * An e-mail alert channel may address operators by role (issue 30: "all finance admins get
 * order.refunded"): the roles are kept, comma-separated, and the admins holding them are looked
 * up when each message is sent, so a new finance admin hears the next refund without an edit.
 */
export const notifyChannelRolesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('notification_channels').addColumn('to_roles', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('notification_channels').dropColumn('to_roles').execute();
  },
};
