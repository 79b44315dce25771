import type { FastifyInstance } from 'fastify';
import { microsToUsd } from '../../domain/money.ts';
import { PAYMENT_PROVIDERS } from '../../domain/order.ts';
import { readPaymentSettings } from '../../payments/payment-settings.ts';
import type { AppDeps } from '../app-deps.ts';

/**
 * What the portal's top-up page offers (issue 28), inside the `/api/account` scope: the enabled
 * providers (a manual provider with the operator's payment instructions), the top-up rules
 * (minimum, maximum, presets, bonus tiers) and the plans sold at checkout (those with a price).
 * Never a provider's settings or secrets.
 */
export function registerAccountCheckoutRoutes(account: FastifyInstance, deps: AppDeps): void {
  account.get('/checkout-options', async () => {
    const [stored, { topUp }, plans] = await Promise.all([deps.store.paymentProviders.list(), readPaymentSettings(deps.store), deps.store.plans.list()]);
    const providers = PAYMENT_PROVIDERS.flatMap((name) => {
      const entry = stored.find((provider) => provider.name === name);
      if (!entry?.enabled) return [];
      const instructions = name === 'manual' && typeof entry.settings.instructions === 'string' ? { instructions: entry.settings.instructions } : {};
      return [{ name, ...instructions }];
    });
    return {
      providers,
      topUp,
      plans: plans
        .filter((plan) => plan.priceMicros !== null && plan.priceMicros > 0)
        .map((plan) => ({
          id: plan.id,
          name: plan.name,
          description: plan.description,
          durationDays: plan.durationDays,
          priceUsd: microsToUsd(plan.priceMicros ?? 0),
        })),
    };
  });
}
