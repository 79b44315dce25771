import type { PaymentProvider } from './payment-provider.ts';

/**
 * Bank transfers and invoices: the order waits, with the operator's instructions, until an
 * operator marks it paid (POST /api/admin/orders/{id}/mark-paid). Nothing arrives from outside,
 * so every notification is refused and a query never finds a payment.
 */
export function createManualProvider(currency: string): PaymentProvider {
  return {
    name: 'manual',
    currency,
    async createCheckout({ order }) {
      return { providerRef: order.id, checkoutUrl: null };
    },
    async verifyNotification() {
      return { kind: 'ignored', reason: 'manual orders are marked paid by an operator' };
    },
    async queryOrder() {
      return undefined;
    },
    // The money goes back the way it came (a transfer the operator makes); the gateway only records it.
    async refund() {},
  };
}
