import type { NewPlan, Plan, PlanPatch } from '../domain/plan.ts';
import type { NewRedemptionCode, RedemptionCode } from '../domain/redemption-code.ts';
import type { NewSubscription, Subscription, SubscriptionPatch } from '../domain/subscription.ts';
import type { NewUser, User, UserPatch } from '../domain/user.ts';

/* The store's ports for accounts: users and their wallets, plans, subscriptions, redemption codes (re-exported by store.ts). */

/**
 * Users, their wallets and keys. Every change bumps `updatedAt` strictly: the wallet's kv
 * account applies a change of funding (balance + spent) only from a newer version (see KvFunding). Deleting a user that still owns keys is a conflict
 * (field `keys`): the keys would silently lose the wallet they spend from.
 */
export interface UserRepository {
  list(): Promise<User[]>;
  /** By id or by name. */
  find(idOrName: string): Promise<User | undefined>;
  create(user: NewUser): Promise<User>;
  update(id: string, patch: UserPatch): Promise<User | undefined>;
  /** Adds a signed amount to the wallet in one statement (a top-up, a redemption). */
  addBalance(id: string, deltaMicros: number): Promise<User | undefined>;
  delete(id: string): Promise<boolean>;
  /** Settled wallet charges, in one transaction: balance minus, spent plus; a `batchId` already applied is skipped. */
  applyCharges(charges: Array<{ keyId: string; amountMicros: number }>, batchId?: string): Promise<void>;
}

/** Deleting a plan that has active subscriptions is a conflict (field `subscriptions`). */
export interface PlanRepository {
  list(): Promise<Plan[]>;
  find(idOrName: string): Promise<Plan | undefined>;
  create(plan: NewPlan): Promise<Plan>;
  update(id: string, patch: PlanPatch): Promise<Plan | undefined>;
  delete(id: string, now: number): Promise<boolean>;
}

/** What a subscription has used in one window (`daily:2026-05-06`, `weekly:w2026-05-04`, `monthly:2026-05`, `total`). */
export interface SubscriptionUsageRow {
  subscriptionId: string;
  window: string;
  usedMicros: number;
}

export interface SubscriptionRepository {
  list(filter?: { userId?: string }): Promise<Subscription[]>;
  get(id: string): Promise<Subscription | undefined>;
  create(subscription: NewSubscription): Promise<Subscription>;
  update(id: string, patch: SubscriptionPatch): Promise<Subscription | undefined>;
  /** Usage of the given windows (absent rows are 0 and not returned). */
  usage(subscriptionId: string, windows: string[]): Promise<SubscriptionUsageRow[]>;
  /** Adds settled charges to the usage rows (creating them), in one transaction. */
  applyUsage(charges: Array<{ keyId: string; amountMicros: number }>, batchId?: string): Promise<void>;
}

export interface RedemptionCodeRepository {
  list(): Promise<RedemptionCode[]>;
  createMany(codes: NewRedemptionCode[]): Promise<RedemptionCode[]>;
  findByHash(codeHash: string): Promise<RedemptionCode | undefined>;
  /**
   * Marks the code used, if and only if it is unused and unexpired at `now`, and runs `grant`
   * in the same transaction; exactly one of any number of concurrent calls gets `true`.
   */
  redeem(
    codeHash: string,
    by: { userId: string | null; keyId: string | null },
    now: number,
    grant: (code: RedemptionCode, transaction: AccountsTransaction) => Promise<void>,
  ): Promise<{ redeemed: true; code: RedemptionCode } | { redeemed: false; code: RedemptionCode | undefined }>;
}

/** What a redemption may change inside its transaction. */
export interface AccountsTransaction {
  addUserBalance(userId: string, deltaMicros: number): Promise<void>;
  addKeyBalance(keyId: string, deltaMicros: number): Promise<void>;
  createSubscription(subscription: NewSubscription): Promise<Subscription>;
}
