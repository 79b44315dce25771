/**
 * A request to be paid out released referral rebates (issue 28). Asking holds the amount: it
 * leaves the wallet at once, so it cannot be spent while the operator decides. A rejection gives
 * it back; approving and paying move no money in the gateway (the operator pays outside it).
 *
 *   pending ──approve──▶ approved ──mark paid──▶ paid
 *      │  └──────────mark paid──────────────────▶ paid
 *      └──reject──▶ rejected ◀──reject── approved      (a rejection returns the held amount once)
 */
export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'paid', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export interface Withdrawal {
  id: string;
  userId: string;
  amountMicros: number;
  status: WithdrawalStatus;
  /** Where the account asks to be paid (its words: a bank account, an Alipay id). */
  payoutTo: string;
  /** The operator's transfer reference, once paid. */
  payoutRef: string | null;
  /** Why it was rejected. */
  reason: string | null;
  decidedBy: string | null;
  decidedAt: number | null;
  paidAt: number | null;
  createdAt: number;
}

/** Which statuses each decision may start from. */
export const WITHDRAWAL_DECISIONS = {
  approve: { from: ['pending'], to: 'approved' },
  reject: { from: ['pending', 'approved'], to: 'rejected' },
  'mark-paid': { from: ['pending', 'approved'], to: 'paid' },
} as const satisfies Record<string, { from: readonly WithdrawalStatus[]; to: WithdrawalStatus }>;
export type WithdrawalDecision = keyof typeof WITHDRAWAL_DECISIONS;
