import type { Selectable } from 'kysely';
import type { ModelPricesTable } from '../database-schema.ts';
import type { ExtraRates, ImagePrice, MediaPrice, ModelPrice } from '../../domain/model-price.ts';
import { appendPriceVersion } from './price-version-repository.ts';
import type { PriceRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';

export function createPriceRepository(context: StoreContext): PriceRepository {
  const { db, now } = context;
  return {
    async list() {
      const rows = await db.selectFrom('model_prices').selectAll().orderBy('model').execute();
      return rows.map(toModelPrice);
    },

    /** The latest sell price of the model, and a `sell` version of it (one transaction). */
    async upsert(price, options = {}) {
      for (const field of ['inputPerMillion', 'outputPerMillion', 'cacheReadPerMillion', 'cacheWritePerMillion', 'webSearchPerThousand'] as const) {
        const value = price[field];
        if (value !== null && value !== undefined && !Number.isSafeInteger(value)) {
          throw new TypeError(`${field} must be an integer number of micro-USD, got ${value}`);
        }
      }
      if (price.images !== undefined) assertWholeImageMicros(price.images);
      if (price.media !== undefined) assertWholeMicros(Object.values(price.media));
      if (price.extra !== undefined) assertWholeExtraMicros(price.extra);
      const { model, ...figures } = price;
      const at = now();
      const row = {
        model,
        input_per_million: price.inputPerMillion,
        output_per_million: price.outputPerMillion,
        cache_read_per_million: price.cacheReadPerMillion,
        cache_write_per_million: price.cacheWritePerMillion,
        web_search_per_thousand: price.webSearchPerThousand ?? null,
        image_prices: price.images === undefined ? null : JSON.stringify(price.images),
        media_prices: price.media === undefined ? null : JSON.stringify(price.media),
        extra_rates: price.extra === undefined ? null : JSON.stringify(price.extra),
        version: null as string | null,
        updated_at: at,
      };
      return db.transaction().execute(async (trx) => {
        const version = await appendPriceVersion(context, trx, {
          scope: 'sell',
          ref: '',
          model,
          price: figures,
          effectiveFrom: options.effectiveFrom ?? at,
          source: options.source ?? null,
        });
        row.version = version.id;
        const { model: _model, ...changes } = row;
        await trx
          .insertInto('model_prices')
          .values(row)
          .onConflict((conflict) => conflict.column('model').doUpdateSet(changes))
          .execute();
        return toModelPrice(row);
      });
    },

    async delete(model) {
      const result = await db.deleteFrom('model_prices').where('model', '=', model).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

/** `webSearchPerThousand` only when set: most models have no search price. */
function toModelPrice(row: Selectable<ModelPricesTable>): ModelPrice {
  const price: ModelPrice = {
    model: row.model,
    inputPerMillion: Number(row.input_per_million),
    outputPerMillion: Number(row.output_per_million),
    cacheReadPerMillion: row.cache_read_per_million === null ? null : Number(row.cache_read_per_million),
    cacheWritePerMillion: row.cache_write_per_million === null ? null : Number(row.cache_write_per_million),
    updatedAt: Number(row.updated_at),
  };
  if (row.web_search_per_thousand !== null && row.web_search_per_thousand !== undefined) price.webSearchPerThousand = Number(row.web_search_per_thousand);
  if (typeof row.image_prices === 'string') price.images = JSON.parse(row.image_prices) as ImagePrice;
  if (typeof row.media_prices === 'string') price.media = JSON.parse(row.media_prices) as MediaPrice;
  if (typeof row.extra_rates === 'string') price.extra = JSON.parse(row.extra_rates) as ExtraRates;
  if (typeof row.version === 'string') price.version = row.version;
  return price;
}

/** Every image figure is stored as whole micro-USD, like the token prices. */
function assertWholeImageMicros(images: ImagePrice): void {
  const perImage = images.perImage;
  const figures = [
    ...(perImage === undefined ? [] : typeof perImage === 'number' ? [perImage] : Object.values(perImage).flatMap((qualities) => Object.values(qualities))),
    images.inputPerMillion,
    images.outputPerMillion,
  ];
  for (const value of figures) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) throw new TypeError(`image prices must be whole micro-USD, got ${value}`);
  }
}

/** Audio and rerank figures are whole micro-USD too. */
function assertWholeMicros(values: readonly (number | undefined)[]): void {
  for (const value of values) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) throw new TypeError(`media prices must be whole micro-USD, got ${value}`);
  }
}

/** The extra classes are whole micro-USD too; a tier names a positive threshold. */
function assertWholeExtraMicros(extra: ExtraRates): void {
  const figures = [extra.cacheWrite1hPerMillion, extra.reasoningPerMillion, extra.perRequest];
  for (const tier of extra.tiers ?? [])
    figures.push(
      tier.aboveInputTokens,
      tier.inputPerMillion,
      tier.outputPerMillion,
      tier.cacheReadPerMillion,
      tier.cacheWritePerMillion,
      tier.cacheWrite1hPerMillion,
    );
  for (const value of figures) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) throw new TypeError(`prices must be whole micro-USD, got ${value}`);
  }
}
