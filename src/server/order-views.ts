import type { Order } from '../domain/order.ts';
import { microsToUsd } from '../domain/money.ts';

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** An order as the portal and the admin API show it: USD amounts, the charge in the provider's currency, ISO times. */
export function orderView(order: Order) {
  return {
    id: order.id,
    userId: order.userId,
    provider: order.provider,
    status: order.status,
    planId: order.planId,
    amountUsd: microsToUsd(order.amountMicros),
    creditUsd: microsToUsd(order.creditMicros),
    bonusUsd: microsToUsd(order.bonusMicros),
    refundedUsd: microsToUsd(order.refundedMicros),
    currency: order.currency,
    chargeAmount: order.chargeMinor / 100,
    promotionCode: order.promotionCode,
    checkoutUrl: order.status === 'pending' ? order.checkoutUrl : null,
    createdAt: iso(order.createdAt),
    expiresAt: iso(order.expiresAt),
    paidAt: iso(order.paidAt),
    creditedAt: iso(order.creditedAt),
  };
}
