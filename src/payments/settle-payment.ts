import { formatUsd } from '../billing/format-usd.ts';
import { PAYABLE_STATUSES, type Order, type PaymentProviderName } from '../domain/order.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { PaymentRefusedError, type PaymentConfirmation } from './payment-provider.ts';
import { rebateFor } from './referral.ts';

const DAY = 86_400_000;

/**
 * A payment the provider vouched for (a verified notification or a query's answer): checked
 * against the order (same provider, currency and amount, else refused and nothing credited),
 * moved pending/expired → paid, then credited. Replays and concurrent notifications are safe:
 * each step is one conditional write, and a replay of a credited order changes nothing.
 */
export async function settlePayment(deps: PaymentDeps, provider: PaymentProviderName, payment: PaymentConfirmation): Promise<Order> {
  const order = await deps.store.orders.get(payment.orderId);
  if (!order || order.provider !== provider) throw new PaymentRefusedError(`No ${provider} order "${payment.orderId}" exists here.`);
  if (payment.currency !== order.currency || payment.paidMinor !== order.chargeMinor) {
    throw new PaymentRefusedError(
      `The payment (${payment.paidMinor} ${payment.currency}) does not match order ${order.id} (${order.chargeMinor} ${order.currency}); nothing was credited.`,
    );
  }
  if (PAYABLE_STATUSES.includes(order.status)) {
    const time = deps.now();
    await deps.store.orders.transition(
      order.id,
      { from: PAYABLE_STATUSES },
      'paid',
      { paymentRef: payment.paymentRef, payerFingerprint: payment.payerFingerprint, paidAt: time },
      (paid, ledger) =>
        ledger.note(paid.userId, 0, `order ${paid.id} paid through ${provider}${order.status === 'expired' ? ' after it expired (reconciled)' : ''}`),
    );
  }
  return (await creditOrder(deps, order.id)) ?? ((await deps.store.orders.get(order.id)) as Order);
}

/**
 * Credits a paid order exactly once: one conditional UPDATE (paid → credited) and, only for the
 * caller whose UPDATE changed the row, in the same transaction, the wallet (less any debt, which
 * it repays first) or the plan's subscription (starting when the account's current one to the same
 * plan ends), the inviter's held rebate, and the audit trail. Undefined when it was not this call's to credit.
 */
export async function creditOrder(deps: PaymentDeps, orderId: string): Promise<Order | undefined> {
  const order = await deps.store.orders.get(orderId);
  if (!order || order.status !== 'paid') return undefined;
  // Everything the transaction needs is read first: on SQLite a read outside it would wait for it.
  const time = deps.now();
  const plan = order.planId ? await deps.store.plans.find(order.planId) : undefined;
  const samePlan = plan
    ? (await deps.store.subscriptions.list({ userId: order.userId })).filter((entry) => entry.planId === plan.id && !entry.suspended && entry.expiresAt > time)
    : [];
  const rebate = await rebateFor(deps, order);
  const credited = await deps.store.orders.transition(order.id, { from: ['paid'] }, 'credited', { creditedAt: time }, async (current, ledger) => {
    if (plan) {
      const startsAt = Math.max(time, ...samePlan.map((entry) => entry.expiresAt));
      const subscription = await ledger.createSubscription({
        userId: current.userId,
        planId: plan.id,
        startsAt,
        expiresAt: startsAt + plan.durationDays * DAY,
      });
      await ledger.note(current.userId, 0, `order ${current.id} credited: plan "${plan.name}" (subscription ${subscription.id})`);
    } else {
      const repaid = await ledger.repayDebt(current.userId, current.creditMicros);
      await ledger.addUserBalance(current.userId, current.creditMicros - repaid);
      const bonus = current.bonusMicros > 0 ? ` including a ${formatUsd(current.bonusMicros)} bonus` : '';
      const debt = repaid > 0 ? `; ${formatUsd(repaid)} repaid the account's debt` : '';
      await ledger.note(current.userId, current.creditMicros - repaid, `order ${current.id} credited: ${formatUsd(current.creditMicros)}${bonus}${debt}`);
    }
    if (rebate) await ledger.createRebate(rebate);
  });
  if (credited) {
    await deps.walletsChanged([credited.userId]);
    deps.orderChanged?.('order.paid', credited);
  }
  return credited;
}
