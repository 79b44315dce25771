import { microsToUsd } from '../domain/money.ts';
import type { Withdrawal } from '../domain/withdrawal.ts';

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** A rebate withdrawal as the portal and the admin API show it: USD amounts, ISO times. */
export function withdrawalView(withdrawal: Withdrawal) {
  return {
    id: withdrawal.id,
    userId: withdrawal.userId,
    amountUsd: microsToUsd(withdrawal.amountMicros),
    status: withdrawal.status,
    payoutTo: withdrawal.payoutTo,
    payoutRef: withdrawal.payoutRef,
    reason: withdrawal.reason,
    decidedBy: withdrawal.decidedBy,
    decidedAt: iso(withdrawal.decidedAt),
    paidAt: iso(withdrawal.paidAt),
    createdAt: iso(withdrawal.createdAt),
  };
}
