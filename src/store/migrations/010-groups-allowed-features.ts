import type { Kysely, Migration } from 'kysely';

/**
 * Which provider features a group's keys may ask for (server tools, stored objects of the
 * upstream account, the priority tier): a JSON array, empty for every existing group, so the
 * features are refused until the operator allows them.
 */
export const groupsAllowedFeaturesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('groups').addColumn('allowed_features', 'text', (column) => column.notNull().defaultTo('[]')).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('groups').dropColumn('allowed_features').execute();
  },
};
