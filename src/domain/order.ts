/**
 * A payment order (issue 28): an account pays a provider, and the gateway credits the wallet
 * (or starts a plan) exactly once. Money is integer micro-USD; `chargeMinor` is what the
 * provider charges in `currency`'s minor unit (cents, fen), from the operator's exchange rate.
 *
 *   pending ──paid notification / query / mark-paid──▶ paid ──one conditional write──▶ credited
 *      │                                                                          │
 *      └─ expiresAt passed, provider says unpaid ─▶ expired ─(paid after all)─▶ paid      ├─ refund (part) ─▶ partially_refunded
 *                                                                                 └─ refund (rest) ─▶ refunded
 */
export const ORDER_STATUSES = ['pending', 'paid', 'credited', 'expired', 'refunded', 'partially_refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_PROVIDERS = ['stripe', 'epay', 'manual'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export interface Order {
  id: string;
  userId: string;
  provider: PaymentProviderName;
  /** A plan bought at checkout; null for a wallet top-up. */
  planId: string | null;
  status: OrderStatus;
  /** What the account pays, micro-USD (after any promotion). */
  amountMicros: number;
  /** What the wallet receives (amount + bonus); 0 for a plan. */
  creditMicros: number;
  bonusMicros: number;
  /** ISO 4217, lower case (`usd`, `cny`). */
  currency: string;
  chargeMinor: number;
  promotionCode: string | null;
  /** The provider's id of the checkout (Stripe session, Epay trade). */
  providerRef: string | null;
  /** The provider's id of the payment (Stripe payment intent, Epay trade_no), needed to refund. */
  paymentRef: string | null;
  /** Who paid, as the provider tells it (hashed), for the self-referral check. */
  payerFingerprint: string | null;
  checkoutUrl: string | null;
  refundedMicros: number;
  expiresAt: number;
  paidAt: number | null;
  creditedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export type NewOrder = Pick<
  Order,
  'userId' | 'provider' | 'planId' | 'amountMicros' | 'creditMicros' | 'bonusMicros' | 'currency' | 'chargeMinor' | 'promotionCode' | 'expiresAt'
>;

/** Statuses a payment can still arrive in (an expired order is reconciled if the provider says it was paid). */
export const PAYABLE_STATUSES: readonly OrderStatus[] = ['pending', 'expired'];
/** Statuses a refund can start from. */
export const REFUNDABLE_STATUSES: readonly OrderStatus[] = ['credited', 'partially_refunded'];
