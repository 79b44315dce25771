import type { Kysely, Migration } from 'kysely';

/**
 * `model_prices.media_prices`: what an audio or rerank model costs (MediaPrice as JSON, micro-USD:
 * per second, per million characters, per million audio tokens, per search unit). JSON like
 * migration 014's image prices: most models have none of these figures.
 */
export const mediaPricesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('model_prices').addColumn('media_prices', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('model_prices').dropColumn('media_prices').execute();
  },
};
