import { storedProviders, type PaymentDeps } from '../payments/payment-deps.ts';
import { microsToUsd } from '../domain/money.ts';
import type { AppDeps } from './app-deps.ts';

/**
 * The order flows' dependencies from the app's: after a wallet changes, the snapshot is
 * reloaded (which tells the other instances) and each changed wallet's kv account is funded
 * from its new record, as the operator's top-up route does.
 */
export function paymentDepsOf(deps: AppDeps): PaymentDeps {
  const now = () => deps.runtime.now();
  return {
    store: deps.store,
    now,
    provider: storedProviders(deps.store, now),
    available: (user) => deps.access.wallets.available(user),
    orderChanged(event, order) {
      const data = {
        subject: order.id,
        userId: order.userId,
        provider: order.provider,
        status: order.status,
        amountUsd: microsToUsd(order.amountMicros),
        refundedUsd: microsToUsd(order.refundedMicros),
      };
      void deps.notifications?.notifier.emitNotification(event, data, order.amountMicros);
    },
    async walletsChanged(userIds) {
      await deps.snapshot.reload();
      for (const id of userIds) {
        const user = await deps.store.users.find(id);
        if (user) await deps.access.wallets.available(user);
      }
    },
  };
}
