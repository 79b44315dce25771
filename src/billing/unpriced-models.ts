import type { Channel } from '../domain/channel.ts';
import type { ModelPrice } from '../domain/model-price.ts';

/**
 * The public model names an enabled channel serves that have no price, sorted: what a request
 * would be refused for (STRICT_PRICING, 403 model_not_priced) or served free for. Told to the
 * operator at start, so an unpriced model is never a surprise found on the bill.
 */
export function unpricedModels(channels: readonly Channel[], prices: readonly Pick<ModelPrice, 'model'>[]): string[] {
  const priced = new Set(prices.map((price) => price.model));
  const served = new Set(channels.filter((channel) => channel.enabled).flatMap((channel) => channel.models));
  return [...served].filter((model) => !priced.has(model)).sort();
}
