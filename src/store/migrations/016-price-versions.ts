import type { Kysely, Migration } from 'kysely';

/**
 * Prices with history (issue 27). `price_versions` only grows: a price change is a new row
 * effective from its time, so a charge names the version it used and is never repriced.
 * `model_prices` keeps the latest sell price per model (what `GET /api/admin/prices` lists),
 * gaining the classes a flat price lacked (`extra_rates`, JSON: 1-hour cache writes, reasoning,
 * a fee per request, long-context tiers, free) and the version it was set as.
 */
export const priceVersionsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('price_versions')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('scope', 'text', (column) => column.notNull())
      .addColumn('ref', 'text', (column) => column.notNull())
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('price', 'text', (column) => column.notNull())
      .addColumn('discount_bps', 'integer')
      .addColumn('effective_from', 'bigint', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('source', 'text')
      .execute();
    await db.schema.createIndex('price_versions_lookup').on('price_versions').columns(['scope', 'ref', 'model', 'effective_from']).execute();
    await db.schema.alterTable('model_prices').addColumn('extra_rates', 'text').execute();
    await db.schema.alterTable('model_prices').addColumn('version', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('model_prices').dropColumn('version').execute();
    await db.schema.alterTable('model_prices').dropColumn('extra_rates').execute();
    await db.schema.dropTable('price_versions').execute();
  },
};
