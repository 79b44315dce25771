import type { Channel } from '../domain/channel.ts';
import type { ModelPrice } from '../domain/model-price.ts';
import type { PriceVersion } from '../domain/price-version.ts';

/**
 * The public model names an enabled channel serves that have no price — neither a sell price nor
 * a catalogue one (`versions`: the price history) — sorted: what a request would be refused for
 * (STRICT_PRICING, 403 model_not_priced) or served free for. Told to the operator at start and on
 * the console, so an unpriced model is never a surprise found on the bill.
 */
export function unpricedModels(
  channels: readonly Channel[],
  prices: readonly Pick<ModelPrice, 'model'>[],
  versions: readonly Pick<PriceVersion, 'model' | 'scope'>[] = [],
): string[] {
  const priced = new Set([
    ...prices.map((price) => price.model),
    ...versions.filter((version) => version.scope === 'catalogue' || version.scope === 'sell').map((version) => version.model),
  ]);
  const served = new Set(channels.filter((channel) => channel.enabled).flatMap((channel) => channel.models));
  return [...served].filter((model) => !priced.has(model)).sort();
}
