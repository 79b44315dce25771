import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { Order, PaymentProviderName } from '../domain/order.ts';
import { formatUsd } from '../billing/format-usd.ts';
import { chargeMinorFor } from './exchange-rates.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { PaymentProviderError } from './payment-provider.ts';
import { readPaymentSettings } from './payment-settings.ts';
import { bonusFor, discounted, topUpProblem } from './top-up-rules.ts';

/** How long a checkout stays payable; the reconciler asks the provider about it before it expires. */
export const ORDER_LIFETIME_MS = 60 * 60_000;

export interface OrderInput {
  userId: string;
  provider: PaymentProviderName;
  amountMicros?: number | undefined;
  planId?: string | undefined;
  promotionCode?: string | undefined;
  /** The portal's order page (where the payer comes back) and the notification address. */
  returnUrl: (orderId: string) => string;
  notifyUrl: string;
}

/**
 * Opens an order: a top-up within the operator's rules (bonus from the tiers) or a plan at its
 * list price, less a promotion code (one use per account, taken here by the database), charged
 * in the provider's currency at the operator's rate; then the provider's checkout.
 */
export async function createOrder(deps: PaymentDeps, input: OrderInput): Promise<Order> {
  const provider = await deps.provider(input.provider);
  if (!provider) throw invalidRequest(`Payments through ${input.provider} are not enabled on this gateway.`, 'provider');
  const settings = await readPaymentSettings(deps.store);
  const price = await priceOf(deps, input, settings.topUp);
  const promotion = input.promotionCode === undefined ? undefined : await deps.store.promotions.find(input.promotionCode);
  if (input.promotionCode !== undefined && !promotion) throw invalidRequest('This promotion code is unknown.', 'promotionCode');
  const amountMicros = discounted(price.listMicros, promotion);
  const chargeMinor = chargeMinorFor(amountMicros, provider.currency, settings.exchangeRates);
  if (chargeMinor === undefined) {
    throw invalidRequest(
      `The operator has set no exchange rate for ${provider.currency.toUpperCase()}; payments through ${input.provider} cannot be priced.`,
      'provider',
    );
  }
  if (chargeMinor <= 0 && input.provider !== 'manual')
    throw invalidRequest('After the promotion nothing is left to pay; this code cannot be used for this amount.', 'promotionCode');
  const order = await deps.store.orders.create({
    userId: input.userId,
    provider: input.provider,
    planId: price.planId,
    amountMicros,
    creditMicros: price.planId ? 0 : price.listMicros + price.bonusMicros,
    bonusMicros: price.bonusMicros,
    currency: provider.currency,
    chargeMinor,
    promotionCode: promotion?.code ?? null,
    expiresAt: deps.now() + ORDER_LIFETIME_MS,
  });
  if (promotion) {
    const refused = await deps.store.promotions.consume(promotion.code, input.userId, order.id, deps.now());
    if (refused) {
      await deps.store.orders.transition(order.id, { from: ['pending'] }, 'expired', {});
      throw invalidRequest(
        refused === 'used_by_account' ? 'You have already used this promotion code.' : 'This promotion code has expired or been used up.',
        'promotionCode',
      );
    }
  }
  try {
    const checkout = await provider.createCheckout({ order, description: price.description, returnUrl: input.returnUrl(order.id), notifyUrl: input.notifyUrl });
    await deps.store.orders.setCheckout(order.id, checkout.providerRef, checkout.checkoutUrl);
    return { ...order, providerRef: checkout.providerRef, checkoutUrl: checkout.checkoutUrl };
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new GatewayError('upstream_error', `${error.message} The order ${order.id} was not opened; try again.`);
    throw error;
  }
}

async function priceOf(deps: PaymentDeps, input: OrderInput, rules: Parameters<typeof topUpProblem>[1]) {
  if (input.planId !== undefined) {
    const plan = await deps.store.plans.find(input.planId);
    if (!plan) throw invalidRequest(`No plan "${input.planId}" exists.`, 'planId');
    if (plan.priceMicros === null || plan.priceMicros <= 0) throw invalidRequest(`The plan "${plan.name}" has no price and is not sold at checkout.`, 'planId');
    return { planId: plan.id, listMicros: plan.priceMicros, bonusMicros: 0, description: `Plan ${plan.name} (${plan.durationDays} days)` };
  }
  const amount = input.amountMicros ?? 0;
  const problem = topUpProblem(amount, rules);
  if (problem) throw invalidRequest(problem, 'amountUsd');
  return { planId: null, listMicros: amount, bonusMicros: bonusFor(amount, rules), description: `Top-up ${formatUsd(amount)}` };
}
