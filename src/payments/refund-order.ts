import { formatUsd } from '../billing/format-usd.ts';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import { REFUNDABLE_STATUSES, type Order } from '../domain/order.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { PaymentProviderError } from './payment-provider.ts';

/** The part of `whole` that `share` of `of` is, rounded so the parts of successive refunds sum exactly to the whole. */
const partOf = (whole: number, before: number, after: number, of: number) => Math.round((whole * after) / of) - Math.round((whole * before) / of);

/**
 * Refunds all or part of a credited order. The provider's refund runs inside the order's
 * conditional write (expected status and refunded amount), so concurrent refunds of the same
 * order refund once and a failed provider refund changes nothing. The wallet gives back the
 * refunded share of the credit as far as its unspent balance goes; the rest becomes the
 * account's debt (`debtUsd`), never a silently negative wallet. The inviter's rebate is clawed
 * back in the same share.
 */
export async function refundOrder(deps: PaymentDeps, orderId: string, amountMicros: number | undefined): Promise<Order> {
  const order = await deps.store.orders.get(orderId);
  if (!order) throw new GatewayError('not_found', `No order "${orderId}" exists.`);
  if (!REFUNDABLE_STATUSES.includes(order.status)) throw invalidRequest(`Order ${order.id} is ${order.status}; only credited orders can be refunded.`, 'id');
  const remaining = order.amountMicros - order.refundedMicros;
  const amount = amountMicros ?? remaining;
  if (amount <= 0 || amount > remaining)
    throw invalidRequest(`amountUsd: at most ${formatUsd(remaining)} of order ${order.id} is left to refund.`, 'amountUsd');
  const provider = await deps.provider(order.provider);
  if (!provider) throw invalidRequest(`Payments through ${order.provider} are not enabled, so the refund cannot be sent.`, 'id');
  const user = await deps.store.users.find(order.userId);
  if (!user) throw new GatewayError('not_found', `The account of order ${order.id} no longer exists.`);

  const after = order.refundedMicros + amount;
  const chargeMinor = partOf(order.chargeMinor, order.refundedMicros, after, order.amountMicros);
  const takeBack = partOf(order.creditMicros, order.refundedMicros, after, order.amountMicros);
  const fromWallet = Math.min(takeBack, Math.max(0, await deps.available(user)));
  const status = after === order.amountMicros ? 'refunded' : 'partially_refunded';
  let refunded: Order | undefined;
  try {
    refunded = await deps.store.orders.transition(
      order.id,
      { from: REFUNDABLE_STATUSES, refundedMicros: order.refundedMicros },
      status,
      { refundedMicros: after },
      async (current, ledger) => {
        await provider.refund(current, chargeMinor, `switchyard-refund-${current.id}-${order.refundedMicros}-${after}`);
        await ledger.addUserBalance(current.userId, -fromWallet);
        await ledger.addDebt(current.userId, takeBack - fromWallet);
        const debt = takeBack > fromWallet ? `; ${formatUsd(takeBack - fromWallet)} already spent, recorded as debt` : '';
        await ledger.note(current.userId, -fromWallet, `order ${current.id} ${status.replace('_', ' ')}: ${formatUsd(amount)} paid back${debt}`);
        await ledger.clawRebate(current.id, { refundedMicros: after, orderMicros: current.amountMicros });
      },
    );
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new GatewayError('upstream_error', `${error.message} Nothing was refunded.`);
    throw error;
  }
  if (!refunded) throw new GatewayError('conflict', `Order ${order.id} changed while refunding (another refund?); reload it and try again.`);
  if (order.planId && status === 'refunded') await suspendPlanOf(deps, order);
  const inviter = await deps.store.referrals.inviterOf(order.userId);
  await deps.walletsChanged(inviter ? [order.userId, inviter.inviterId] : [order.userId]);
  deps.orderChanged?.('order.refunded', refunded);
  return refunded;
}

/**
 * A plan refunded in full stops: the subscription its order started (same account and plan,
 * created in the crediting transaction, so within moments of `creditedAt`) is suspended.
 */
async function suspendPlanOf(deps: PaymentDeps, order: Order): Promise<void> {
  const credited = order.creditedAt ?? 0;
  const started = (await deps.store.subscriptions.list({ userId: order.userId }))
    .filter((entry) => entry.planId === order.planId && Math.abs(entry.createdAt - credited) < 60_000)
    .sort((a, b) => Math.abs(a.createdAt - credited) - Math.abs(b.createdAt - credited))[0];
  if (started) await deps.store.subscriptions.update(started.id, { suspended: true });
}
