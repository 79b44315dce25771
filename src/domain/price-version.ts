import type { NewModelPrice } from './model-price.ts';

/**
 * Whose price a version is: `catalogue` (the providers' list prices, from the data file),
 * `sell` (what the operator charges for a model), `group` (a sell price for one group × model,
 * `ref` the group's name) or `cost` (what the operator pays one channel, `ref` the channel's id).
 */
export type PriceScope = 'catalogue' | 'sell' | 'group' | 'cost';

/**
 * One price as set at one time. Versions are only ever added: a price change adds a version
 * effective from its time, so what was billed before keeps naming the version it used.
 * A channel's discount off the catalogue is a `cost` version for model `*` with `discountBps`.
 */
export interface PriceVersion {
  id: string;
  scope: PriceScope;
  /** '' for catalogue and sell; the group name; the channel id. */
  ref: string;
  model: string;
  price: Omit<NewModelPrice, 'model'>;
  /** Basis points off the catalogue price (model `*` of a `cost` scope only). */
  discountBps?: number;
  effectiveFrom: number;
  createdAt: number;
  /** Where the figures came from (the catalogue file's source and date, `admin`, `config`). */
  source: string | null;
}

export type NewPriceVersion = Omit<PriceVersion, 'id' | 'createdAt'>;

/** The model name a channel-wide discount is stored under. */
export const ANY_MODEL = '*';
