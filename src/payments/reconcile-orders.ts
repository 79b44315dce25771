import type { Order } from '../domain/order.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { PaymentProviderError, PaymentRefusedError } from './payment-provider.ts';
import { releaseRebates } from './referral.ts';
import { creditOrder, settlePayment } from './settle-payment.ts';

/** Pending orders this close to expiring (or past it) are asked about before they expire. */
export const RECONCILE_AHEAD_MS = 10 * 60_000;
/** An expired order is still asked about this long (a payer who paid late, a lost notification). */
export const LATE_PAYMENT_MS = 24 * 3_600_000;

/**
 * Asks the provider about one pending (or lately expired) order: paid → settled (the same checks
 * and conditional writes as a notification); not paid and past its expiry → expired. Returns the
 * order's status.
 */
export async function reconcileOrder(deps: PaymentDeps, order: Order): Promise<Order['status']> {
  const provider = await deps.provider(order.provider);
  const askable = order.status === 'pending' || (order.status === 'expired' && deps.now() - order.expiresAt < LATE_PAYMENT_MS);
  if (provider && askable) {
    const payment = await provider.queryOrder(order);
    if (payment && payment.orderId === order.id) return (await settlePayment(deps, order.provider, payment)).status;
  }
  if (order.status === 'pending' && order.expiresAt <= deps.now()) {
    const expired = await deps.store.orders.transition(order.id, { from: ['pending'] }, 'expired', {}, (current, ledger) =>
      ledger.note(current.userId, 0, `order ${current.id} expired unpaid`),
    );
    return expired?.status ?? 'pending';
  }
  return order.status;
}

/**
 * One pass of the reconciler (every instance runs it; the conditional writes make that safe):
 * pending orders near or past expiry are asked about, paid orders left uncredited (a crash
 * between the two writes) are credited, and due referral rebates are released.
 */
export async function reconcileOrders(deps: PaymentDeps, onError: (order: Order, error: Error) => void): Promise<void> {
  const pending = await deps.store.orders.listPending(Number.MAX_SAFE_INTEGER, 200);
  const due = pending.filter((order) => order.expiresAt - RECONCILE_AHEAD_MS <= deps.now());
  for (const order of due) {
    try {
      await reconcileOrder(deps, order);
    } catch (error) {
      if (error instanceof PaymentProviderError || error instanceof PaymentRefusedError) onError(order, error);
      else throw error;
    }
  }
  for (const order of await deps.store.orders.list({ status: 'paid', limit: 200 })) await creditOrder(deps, order.id);
  await releaseRebates(deps);
}

/** Runs `reconcileOrders` every `intervalMs` (unref'd); returns the stop function. */
export function startPaymentReconciler(deps: PaymentDeps, intervalMs: number, log: (message: string, detail: Record<string, unknown>) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    reconcileOrders(deps, (order, error) => log('payment reconciliation of an order failed', { orderId: order.id, error: error.message }))
      .catch((error: Error) => log('payment reconciliation failed', { error: error.message }))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
