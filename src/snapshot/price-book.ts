import type { ModelPrice } from '../domain/model-price.ts';
import { ANY_MODEL, type PriceScope, type PriceVersion } from '../domain/price-version.ts';
import { priceBookKey, type Snapshot } from './snapshot.ts';

/**
 * Which price applies to what, at a given time, read from the snapshot's price history.
 * A version applies from its `effectiveFrom` until the next one of the same list and model, so a
 * price set today never changes what an earlier request was billed (and a change can be
 * scheduled ahead).
 */
export function versionAt(snapshot: Snapshot, scope: PriceScope, ref: string, model: string, at: number): PriceVersion | undefined {
  const versions = snapshot.priceVersions.get(priceBookKey(scope, ref, model));
  if (versions === undefined) return undefined;
  let chosen: PriceVersion | undefined;
  for (const version of versions) {
    if (version.effectiveFrom > at) continue;
    // Same effective time: the one created later wins (the store lists them in that order).
    if (chosen === undefined || version.effectiveFrom >= chosen.effectiveFrom) chosen = version;
  }
  return chosen;
}

/**
 * A version as the price the cost function reads, naming the version. Built once per version and
 * kept while the version is (a snapshot's versions never change): every relayed request asks for
 * its sell price and each attempt's cost price, and a fresh spread per ask was a visible share of
 * the request's CPU (issue 33). Callers read the price, never change it.
 */
export function versionPrice(version: PriceVersion): ModelPrice {
  let price = PRICE_OF_VERSION.get(version);
  if (price === undefined) {
    price = { ...version.price, model: version.model, version: version.id, updatedAt: version.createdAt };
    PRICE_OF_VERSION.set(version, price);
  }
  return price;
}
const PRICE_OF_VERSION = new WeakMap<PriceVersion, ModelPrice>();

/**
 * The sell price of `model` for `group` at `at`: the group's own price for the model, else the
 * operator's sell price, else the catalogue's list price, else a price set before versions
 * existed. The group's multiplier is applied on top by the caller, whichever it is.
 */
export function sellPriceAt(snapshot: Snapshot, model: string, group: string | undefined, at: number): ModelPrice | undefined {
  const version =
    (group === undefined ? undefined : versionAt(snapshot, 'group', group, model, at)) ??
    versionAt(snapshot, 'sell', '', model, at) ??
    versionAt(snapshot, 'catalogue', '', model, at);
  return version === undefined ? snapshot.prices.get(model) : versionPrice(version);
}

/** What one attempt on a channel costs the operator: a price, and a factor (a discount) to apply to it. */
export interface CostPrice {
  price: ModelPrice;
  multiplier: number;
  /** `own`: the channel's price list; `discount`: the catalogue less the channel's discount; `catalogue`; `sell`: no cost price known, the sell price assumed. */
  basis: 'own' | 'discount' | 'catalogue' | 'sell';
}

/**
 * The cost price of `model` on `channelId` at `at`: the channel's own price for the model, else
 * the catalogue price less the channel's discount (a `cost` version of model `*`), else the
 * catalogue, else the sell price (without any group multiplier) — an assumption the basis names.
 */
export function costPriceAt(snapshot: Snapshot, model: string, channelId: string, at: number): CostPrice | undefined {
  const own = versionAt(snapshot, 'cost', channelId, model, at);
  if (own !== undefined) return { price: versionPrice(own), multiplier: 1, basis: 'own' };
  const catalogue = versionAt(snapshot, 'catalogue', '', model, at);
  if (catalogue !== undefined) {
    const discount = versionAt(snapshot, 'cost', channelId, ANY_MODEL, at)?.discountBps ?? 0;
    return discount > 0
      ? { price: versionPrice(catalogue), multiplier: (10_000 - Math.min(discount, 10_000)) / 10_000, basis: 'discount' }
      : { price: versionPrice(catalogue), multiplier: 1, basis: 'catalogue' };
  }
  const sell = sellPriceAt(snapshot, model, undefined, at);
  return sell === undefined ? undefined : { price: sell, multiplier: 1, basis: 'sell' };
}

/** Whether `model` has any sell price (or a catalogue one) at `at`: what strict pricing asks. */
export function isPriced(snapshot: Snapshot, model: string, at: number): boolean {
  return sellPriceAt(snapshot, model, undefined, at) !== undefined;
}
