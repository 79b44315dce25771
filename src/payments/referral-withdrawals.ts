import { formatUsd } from '../billing/format-usd.ts';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import { usdToMicros } from '../domain/money.ts';
import type { User } from '../domain/user.ts';
import { WITHDRAWAL_DECISIONS, type Withdrawal, type WithdrawalDecision } from '../domain/withdrawal.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { readPaymentSettings } from './payment-settings.ts';

const DEFAULT_WITHDRAW_MIN_USD = 10;

/** What an inviter may withdraw now: credited rebates not yet asked for, no more than the wallet's spendable balance. */
export async function withdrawableMicros(deps: PaymentDeps, user: User): Promise<number> {
  const { earnedMicros, withdrawnMicros } = await deps.store.withdrawals.balanceOf(user.id);
  return Math.max(0, Math.min(earnedMicros - withdrawnMicros, await deps.available(user)));
}

/** The operator's withdrawal rules: off unless enabled; the smallest request. */
export async function withdrawalRules(deps: PaymentDeps): Promise<{ enabled: boolean; minUsd: number }> {
  const { referral } = await readPaymentSettings(deps.store);
  return { enabled: referral.withdrawalsEnabled ?? false, minUsd: referral.withdrawMinUsd ?? DEFAULT_WITHDRAW_MIN_USD };
}

/**
 * An inviter asks to be paid out `amountUsd` of credited rebates. The amount leaves the wallet at
 * once (held until the operator decides), through one conditional write that refuses to pass
 * the credited rebates, so concurrent requests never withdraw the same rebate twice. Refused
 * while the account owes a debt: a refund's shortfall is repaid before anything is paid out.
 */
export async function requestWithdrawal(deps: PaymentDeps, user: User, amountUsd: number, payoutTo: string): Promise<Withdrawal> {
  const rules = await withdrawalRules(deps);
  if (!rules.enabled) throw invalidRequest('The operator does not pay out referral rebates; they stay in the wallet as credit.', 'amountUsd');
  const amount = usdToMicros(amountUsd);
  if (amountUsd < rules.minUsd) throw invalidRequest(`amountUsd: the smallest withdrawal is ${formatUsd(usdToMicros(rules.minUsd))}.`, 'amountUsd');
  if ((await deps.store.orders.debtOf(user.id)) > 0) throw invalidRequest('This account owes a debt; it is repaid before any rebate is paid out.', 'amountUsd');
  const allowed = await withdrawableMicros(deps, (await deps.store.users.find(user.id)) ?? user);
  if (amount > allowed) throw invalidRequest(`amountUsd: at most ${formatUsd(allowed)} of credited rebates can be withdrawn now.`, 'amountUsd');
  await deps.store.referrals.codeOf(user.id);
  const withdrawal = await deps.store.withdrawals.request(user.id, amount, payoutTo);
  if (!withdrawal) throw new GatewayError('conflict', 'Another withdrawal took these rebates at the same moment; reload and try again.');
  await deps.walletsChanged([user.id]);
  return withdrawal;
}

/**
 * The operator approves, rejects (the held amount goes back to the wallet) or marks paid a
 * request. One conditional write on the request's status: of concurrent decisions one wins, and a
 * rejection gives the amount back once. Every decision is a line in the wallet's audit trail.
 */
export async function decideWithdrawal(
  deps: PaymentDeps,
  id: string,
  decision: WithdrawalDecision,
  by: { actor: string; reason?: string | undefined; payoutRef?: string | undefined },
): Promise<Withdrawal> {
  const existing = await deps.store.withdrawals.get(id);
  if (!existing) throw new GatewayError('not_found', `No withdrawal "${id}" exists.`);
  const { from, to } = WITHDRAWAL_DECISIONS[decision];
  const time = deps.now();
  const decided = await deps.store.withdrawals.transition(
    id,
    from,
    to,
    {
      decidedBy: by.actor,
      decidedAt: time,
      ...(to === 'paid' ? { paidAt: time, payoutRef: by.payoutRef ?? null } : {}),
      ...(to === 'rejected' ? { reason: by.reason ?? null } : {}),
    },
    (withdrawal, ledger) => ledger.note(withdrawal.userId, to === 'rejected' ? withdrawal.amountMicros : 0, noteOf(withdrawal, by.actor)),
  );
  if (!decided) {
    const now = await deps.store.withdrawals.get(id);
    throw new GatewayError('conflict', `Withdrawal ${id} is ${now?.status ?? existing.status}; it cannot be ${to} now.`);
  }
  if (to === 'rejected') await deps.walletsChanged([decided.userId]);
  return decided;
}

function noteOf(withdrawal: Withdrawal, actor: string): string {
  const amount = formatUsd(withdrawal.amountMicros);
  if (withdrawal.status === 'rejected')
    return `withdrawal ${withdrawal.id} rejected by ${actor}: ${amount} back in the wallet${withdrawal.reason ? ` (${withdrawal.reason})` : ''}`;
  if (withdrawal.status === 'paid')
    return `withdrawal ${withdrawal.id} of ${amount} paid out by ${actor}${withdrawal.payoutRef ? ` (ref ${withdrawal.payoutRef})` : ''}`;
  return `withdrawal ${withdrawal.id} of ${amount} approved by ${actor}`;
}
