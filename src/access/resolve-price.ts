import { GatewayError } from '../core/gateway-error.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { ModelPrice } from '../domain/model-price.ts';
import { sellPriceAt } from '../snapshot/price-book.ts';

/**
 * The sell price a request for `model` is billed at (the group's own, else the model's, at
 * `at`: see snapshot/price-book.ts). Without a price the request is refused (`model_not_priced`,
 * STRICT_PRICING, the default) or, with strict pricing off, served at zero cost and logged with
 * an `unpriced` warning. A model the operator marked free has a price: zero.
 */
export function resolvePrice(snapshot: Snapshot, model: string, strictPricing: boolean, group?: string, at = Date.now()): ModelPrice | undefined {
  const price = sellPriceAt(snapshot, model, group, at);
  if (price === undefined && strictPricing) {
    throw new GatewayError(
      'model_not_priced',
      `Model "${model}" has no price set, and this gateway refuses unpriced models (STRICT_PRICING). Ask the operator to set its price (POST /api/admin/prices) or to mark it free, or use another model.`,
      { param: 'model' },
    );
  }
  return price;
}

export const UNPRICED_WARNING = 'unpriced:model';
