import { GatewayError } from '../core/gateway-error.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { ModelPrice } from '../domain/model-price.ts';

/**
 * The price a request for `model` is billed at. Without a price the request is served at zero
 * cost and logged with an `unpriced` warning, unless the operator turned on strict pricing.
 */
export function resolvePrice(snapshot: Snapshot, model: string, strictPricing: boolean): ModelPrice | undefined {
  const price = snapshot.prices.get(model);
  if (price === undefined && strictPricing) {
    throw new GatewayError(
      'model_not_priced',
      `Model "${model}" has no price set, and this gateway refuses unpriced models (STRICT_PRICING). Ask the operator to set its price (POST /api/admin/prices) or use another model.`,
      { param: 'model' },
    );
  }
  return price;
}

export const UNPRICED_WARNING = 'unpriced:model';
