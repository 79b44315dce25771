import type { Order, PaymentProviderName } from '../domain/order.ts';
import type { User } from '../domain/user.ts';
import type { Store } from '../store/store.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { openPaymentProvider } from './provider-settings.ts';

/** What the order flows need: the store, the clock, the providers, and a hook after a wallet changes. */
export interface PaymentDeps {
  store: Store;
  now: () => number;
  /** The enabled provider of that name, from its stored settings (undefined: not enabled). */
  provider(name: PaymentProviderName): Promise<PaymentProvider | undefined>;
  /**
   * Called after a transition changed wallets (credit, refund, rebate): the HTTP layer reloads
   * the snapshot (telling the other instances) and funds the wallets' kv accounts.
   */
  walletsChanged(userIds: string[]): Promise<void>;
  /** The wallet's spendable balance now (kv), micro-USD: what a refund may take back. */
  available(user: User): Promise<number>;
  /** Told once per transition that won (credited, refunded): the alerting's `order.paid` / `order.refunded`. */
  orderChanged?(event: 'order.paid' | 'order.refunded', order: Order): void;
}

/** The providers as stored, opened on each use (settings change rarely; a checkout is not a hot path). */
export function storedProviders(store: Store, now: () => number): PaymentDeps['provider'] {
  return async (name) => openPaymentProvider(await store.paymentProviders.get(name), now);
}
