import type { NewOrder, Order, OrderStatus, PaymentProviderName } from '../domain/order.ts';
import type { NewSubscription, Subscription } from '../domain/subscription.ts';
import type { Withdrawal, WithdrawalStatus } from '../domain/withdrawal.ts';

/*
 * The ports of money in (issue 28): the repositories of orders, payment providers, referral and
 * promotion codes, and the ledger an order's transition writes through. Kept apart from their
 * implementations (repositories/) so store.ts names them without importing any repository.
 */

export interface OrderQuery {
  userId?: string;
  status?: OrderStatus;
  provider?: PaymentProviderName;
  /** Created at or after / before (epoch ms). */
  from?: number;
  to?: number;
  limit?: number;
}

/** What a conditional transition writes besides the status. */
export type OrderChanges = Partial<Pick<Order, 'paymentRef' | 'payerFingerprint' | 'paidAt' | 'creditedAt' | 'refundedMicros'>>;

/**
 * Payment orders. Every change of status is one conditional UPDATE (`transition`): it names the
 * statuses (and, for refunds, the refunded amount) it expects, so of any number of concurrent
 * callers exactly one changes the row; only that caller's `apply` runs, in the same
 * transaction, to move money. Concurrent callers wait on the row lock (PostgreSQL re-checks the
 * condition after the winner commits) or on SQLite's single writer, as redemption codes do.
 */
export interface OrderRepository {
  create(order: NewOrder): Promise<Order>;
  get(id: string): Promise<Order | undefined>;
  findByProviderRef(provider: PaymentProviderName, providerRef: string): Promise<Order | undefined>;
  list(query?: OrderQuery): Promise<Order[]>;
  /** Pending orders created before `olderThan` (worth asking the provider about). */
  listPending(olderThan: number, limit: number): Promise<Order[]>;
  setCheckout(id: string, providerRef: string, checkoutUrl: string | null): Promise<void>;
  transition(
    id: string,
    expect: { from: readonly OrderStatus[]; refundedMicros?: number },
    to: OrderStatus,
    changes: OrderChanges,
    apply?: (order: Order, ledger: PaymentLedger) => Promise<void>,
  ): Promise<Order | undefined>;
  /** Each account's debt (a refund's shortfall), micro-USD; 0 when none. */
  debtOf(userId: string): Promise<number>;
}

/** A held referral rebate to create with the order that earned it. */
export interface NewRebate {
  orderId: string;
  inviterId: string;
  inviteeId: string;
  amountMicros: number;
  releaseAt: number;
}

/**
 * What an order's transition may change, inside the transaction of its conditional write: the
 * wallet, the debt, a subscription, a rebate, and the wallet's audit trail. Only the caller whose
 * write changed the order's row gets one, so each change happens exactly once.
 */
export interface PaymentLedger {
  addUserBalance(userId: string, deltaMicros: number): Promise<void>;
  /** Takes up to `maxMicros` off the account's debt; returns how much it took. */
  repayDebt(userId: string, maxMicros: number): Promise<number>;
  addDebt(userId: string, micros: number): Promise<void>;
  createSubscription(subscription: NewSubscription): Promise<Subscription>;
  createRebate(rebate: NewRebate): Promise<void>;
  /**
   * Claws back the refunded share of the rebate an order earned (after the refund, `refundedMicros`
   * of the order's `orderMicros` are refunded; the rebate keeps the rest): a held rebate shrinks; a credited
   * one is taken from the inviter's wallet as far as its stored balance goes, the rest becomes the
   * inviter's debt. Returns the inviter and the amount clawed (0 when the order earned none).
   */
  clawRebate(orderId: string, share: { refundedMicros: number; orderMicros: number }): Promise<{ inviterId: string; clawedMicros: number } | undefined>;
  /** A line of the wallet's audit trail (amount 0 for a transition that moves no money). */
  note(userId: string, amountMicros: number, note: string): Promise<void>;
}

/** One payment provider's settings as stored: plain settings, and secrets (decrypted here, sealed at rest). */
export interface StoredPaymentProvider {
  name: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
  updatedAt: number;
}

export interface PaymentProviderRepository {
  list(): Promise<StoredPaymentProvider[]>;
  get(name: string): Promise<StoredPaymentProvider | undefined>;
  save(provider: Omit<StoredPaymentProvider, 'updatedAt'>): Promise<StoredPaymentProvider>;
}

export type RebateStatus = 'pending' | 'credited' | 'clawed_back' | 'refused';

export interface ReferralRebate {
  id: string;
  orderId: string;
  inviterId: string;
  inviteeId: string;
  amountMicros: number;
  clawedMicros: number;
  status: RebateStatus;
  releaseAt: number;
  creditedAt: number | null;
  createdAt: number;
}

export interface Invite {
  inviteeId: string;
  createdAt: number;
}

export interface ReferralRepository {
  /** The account's invite code, made on first ask (unique, 10 base62 characters). */
  codeOf(userId: string): Promise<{ code: string; ratePercent: number | null }>;
  findCode(code: string): Promise<{ userId: string; ratePercent: number | null; deviceFingerprint: string | null } | undefined>;
  /** Remembers the inviter's device cookie (hashed), for the self-referral check. */
  noteDevice(userId: string, fingerprint: string): Promise<void>;
  /** The operator's rate for one inviter (null: the general rate). */
  setRateOverride(userId: string, ratePercent: number | null): Promise<void>;
  /** Records who invited the account; false when it already has an inviter. */
  attach(inviteeId: string, inviterId: string, fingerprint: string | null): Promise<boolean>;
  inviterOf(inviteeId: string): Promise<{ inviterId: string; fingerprint: string | null } | undefined>;
  invitesOf(inviterId: string): Promise<Invite[]>;
  rebatesOf(inviterId: string): Promise<ReferralRebate[]>;
  /** Fingerprints of the orders an account paid (the self-referral check). */
  payerFingerprintsOf(userId: string): Promise<string[]>;
  /**
   * Credits every held rebate due at `time`, each by one conditional UPDATE (pending → credited)
   * with its wallet change in the same transaction, so instances racing over the same rebate
   * credit it once. Returns the inviters this call credited (one entry per rebate).
   */
  releaseDue(time: number, limit?: number): Promise<string[]>;
}

/** A promotion code: `percent` off (value 1–100) or a `fixed` USD amount off (value in micro-USD). */
export interface PromotionCode {
  code: string;
  kind: 'percent' | 'fixed';
  value: number;
  usageLimit: number | null;
  usedCount: number;
  expiresAt: number | null;
  createdAt: number;
}

export interface PromotionRepository {
  list(): Promise<PromotionCode[]>;
  find(code: string): Promise<PromotionCode | undefined>;
  /** StoreConflictError-free: false when the code exists. */
  create(code: Omit<PromotionCode, 'usedCount' | 'createdAt'>): Promise<boolean>;
  delete(code: string): Promise<boolean>;
  /**
   * Takes one use of the code for the account, in one transaction: the (code, account) primary key
   * refuses a second use by the same account, and one conditional UPDATE refuses a use past the
   * limit or the expiry. Returns why it was refused, or undefined when taken.
   */
  consume(code: string, userId: string, orderId: string, time: number): Promise<'used_by_account' | 'exhausted' | undefined>;
}

export interface WithdrawalQuery {
  userId?: string;
  status?: WithdrawalStatus;
  limit?: number;
}

/** What a decision writes besides the status. */
export type WithdrawalChanges = Partial<Pick<Withdrawal, 'payoutRef' | 'reason' | 'decidedBy' | 'decidedAt' | 'paidAt'>>;

/**
 * Withdrawals of released referral rebates. Asking is one conditional UPDATE of the inviter's
 * withdrawn sum (refused past the credited rebates, net of claw-backs) with the wallet's debit in
 * the same transaction; each decision is one conditional UPDATE of the request's status, and only
 * the caller that changed the row runs `apply` (a rejection's refund), as orders.transition does.
 */
export interface WithdrawalRepository {
  list(query?: WithdrawalQuery): Promise<Withdrawal[]>;
  get(id: string): Promise<Withdrawal | undefined>;
  /** The inviter's credited rebates net of claw-backs, and what was asked for (not rejected), micro-USD. */
  balanceOf(userId: string): Promise<{ earnedMicros: number; withdrawnMicros: number }>;
  /** Holds `amountMicros` for payout; undefined when it would pass what the rebates allow. */
  request(userId: string, amountMicros: number, payoutTo: string): Promise<Withdrawal | undefined>;
  transition(
    id: string,
    from: readonly WithdrawalStatus[],
    to: WithdrawalStatus,
    changes: WithdrawalChanges,
    apply?: (withdrawal: Withdrawal, ledger: PaymentLedger) => Promise<void>,
  ): Promise<Withdrawal | undefined>;
}
