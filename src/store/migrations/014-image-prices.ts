import type { Kysely, Migration } from 'kysely';

/**
 * `model_prices.image_prices`: what an image model costs (ImagePrice as JSON, micro-USD: per
 * image, by size × quality, and per million image tokens). One JSON column rather than a column
 * per figure because the per-image figure is a table whose sizes and qualities each provider names.
 */
export const imagePricesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('model_prices').addColumn('image_prices', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('model_prices').dropColumn('image_prices').execute();
  },
};
