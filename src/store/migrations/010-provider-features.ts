import type { Kysely, Migration } from 'kysely';

/**
 * Provider features beyond tokens. `groups.allowed_features`: which feature classes a group's
 * keys may ask for (server tools, stored objects of the upstream account, the priority tier), a
 * JSON array, empty for every existing group, so the features are refused until the operator
 * allows them. `model_prices.web_search_per_thousand`: micro-USD per 1,000 web searches a server
 * tool ran (null: searches are not charged).
 */
export const providerFeaturesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('groups')
      .addColumn('allowed_features', 'text', (column) => column.notNull().defaultTo('[]'))
      .execute();
    await db.schema.alterTable('model_prices').addColumn('web_search_per_thousand', 'bigint').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('model_prices').dropColumn('web_search_per_thousand').execute();
    await db.schema.alterTable('groups').dropColumn('allowed_features').execute();
  },
};
