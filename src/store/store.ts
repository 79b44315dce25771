import type { ApiKey, ApiKeyPatch, NewApiKey } from '../domain/api-key.ts';
import type { Channel, ChannelPatch, NewChannel } from '../domain/channel.ts';
import type { Group, GroupPatch, NewGroup } from '../domain/group.ts';
import type { ModelPrice, NewModelPrice } from '../domain/model-price.ts';
import type { NewPriceVersion, PriceScope, PriceVersion } from '../domain/price-version.ts';
import type { LedgerRepository } from './ledger-repository-port.ts';
import type { NewPlan, Plan, PlanPatch } from '../domain/plan.ts';
import type { NewRedemptionCode, RedemptionCode } from '../domain/redemption-code.ts';
import type { NewSubscription, Subscription, SubscriptionPatch } from '../domain/subscription.ts';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import type { AuditLogRepository } from './audit-log.ts';
import type { NewUser, User, UserPatch } from '../domain/user.ts';
import type { StoredResponse } from '../domain/stored-response.ts';
import type { Admin, AdminPatch, AdminSession, AdminToken, NewAdmin } from '../domain/admin.ts';
import type { IdentityOwner, OneTimeToken, OneTimePurpose, SignInProvider, TotpFactor } from '../domain/identity.ts';
import type { PasskeyRepository } from './passkey-repository-port.ts';

export type { PasskeyRepository } from './passkey-repository-port.ts';
import type { AccountSessionRepository } from './repositories/account-session-repository.ts';
import type { WalletAdjustmentRepository } from './repositories/wallet-adjustment-repository.ts';
import type {
  ChannelWindowRow,
  SpendWindowRow,
  StatusFiguresRow,
  UsageAggregateQuery,
  UsageAggregateRow,
  UsageLogQuery,
  UsageSummary,
  UsageSummaryQuery,
} from './usage-queries.ts';
import type { NotificationRepository } from './repositories/notification-repository.ts';
import type { NotificationOutboxRepository } from './repositories/notification-outbox-repository.ts';
import type { AnnouncementRepository, CircuitHistoryRepository } from './repositories/announcement-repository.ts';
import type { OrderRepository, PaymentProviderRepository, PromotionRepository, ReferralRepository, WithdrawalRepository } from './payment-ports.ts';

/*
 * The store's ports: repository interfaces over the records in `src/domain/`, plus the
 * query and aggregate shapes only the store answers. Records cross this boundary in camelCase,
 * times in epoch milliseconds, money in integer micro-USD (1 USD = 1_000_000), upstream
 * secrets already decrypted; table and column names (snake_case) and encryption stay inside
 * `store/`.
 */

/**
 * Repositories. Each method is atomic: it either writes the whole record or nothing.
 * Lookups of a missing record return `undefined`; constraint violations throw `StoreConflictError`.
 */
export interface GroupRepository {
  list(): Promise<Group[]>;
  get(name: string): Promise<Group | undefined>;
  create(group: NewGroup): Promise<Group>;
  update(name: string, patch: GroupPatch): Promise<Group | undefined>;
  /**
   * Gives a group a new name, with its keys, channels and plans; undefined when it did not exist.
   * The `default` group cannot be renamed, nor a group take a name in use (StoreConflictError, `name`).
   */
  rename(from: string, to: string): Promise<Group | undefined>;
  /** Returns false when the group did not exist. */
  delete(name: string): Promise<boolean>;
}

export interface ChannelRepository {
  list(): Promise<Channel[]>;
  get(id: string): Promise<Channel | undefined>;
  create(channel: NewChannel): Promise<Channel>;
  update(id: string, patch: ChannelPatch): Promise<Channel | undefined>;
  delete(id: string): Promise<boolean>;
}

export interface ApiKeyRepository {
  list(): Promise<ApiKey[]>;
  get(id: string): Promise<ApiKey | undefined>;
  getByHash(keyHash: string): Promise<ApiKey | undefined>;
  create(key: NewApiKey): Promise<ApiKey>;
  update(id: string, patch: ApiKeyPatch): Promise<ApiKey | undefined>;
  delete(id: string): Promise<boolean>;
  /**
   * Applies settled charges in one transaction: subtracts each amount from the balance
   * (when the key has one) and adds it to `spentMicros`. With a `batchId` (a retrying
   * writer's), a batch already applied under that id is skipped (see claimBatchOnce).
   */
  applyCharges(charges: Array<{ keyId: string; amountMicros: number }>, batchId?: string): Promise<void>;
}

export interface PriceRepository {
  list(): Promise<ModelPrice[]>;
  /** Sets the model's sell price, adding a `sell` price version (effective now unless told). */
  upsert(price: NewModelPrice, options?: { effectiveFrom?: number; source?: string }): Promise<ModelPrice>;
  delete(model: string): Promise<boolean>;
}

/** Prices with history (migration 016): added, never changed. */
export interface PriceVersionRepository {
  append(version: NewPriceVersion): Promise<PriceVersion>;
  /** Oldest effective first. */
  list(filter?: { scope?: PriceScope; ref?: string; model?: string }): Promise<PriceVersion[]>;
}

export interface UsageLogRepository {
  /** Batched insert; called off the hot path by the usage writer. */
  insertMany(entries: UsageLogEntry[]): Promise<void>;
  query(query: UsageLogQuery): Promise<UsageLogEntry[]>;
  /** Counts, tokens, cost and latency percentiles per time bucket, plus top models and keys. */
  summarize(query: UsageSummaryQuery): Promise<UsageSummary>;
  /** Deletes entries older than the given time (and their share of the hourly rollup); returns how many went. */
  pruneBefore(time: number): Promise<number>;
  /** Totals per UTC day × key or model, oldest day first, then by subject (nulls last). */
  aggregate(query: UsageAggregateQuery): Promise<UsageAggregateRow[]>;
  /** The status page's counts and TTFB per group × model over 24 h, 7 d and 30 d to `now` (issue 30). */
  statusFigures(now: number): Promise<StatusFiguresRow[]>;
  /** Requests and failures per channel in [from, to). */
  channelWindow(from: number, to: number): Promise<ChannelWindowRow[]>;
  /** Spend per key in [from, to). */
  spendWindow(from: number, to: number): Promise<SpendWindowRow[]>;
}

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

/** Small key/value settings the gateway keeps for itself (admin token hash, …). */
export interface SettingsRepository {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
}

/**
 * Turns of stateful Responses conversations. Every read and delete names the API key: a row
 * of another key, or one past its `expiresAt`, is reported as absent, exactly like an id that
 * never existed.
 */
export interface StoredResponseRepository {
  /** StoreConflictError (field `id`) when the id is already stored. */
  insert(record: StoredResponse): Promise<void>;
  find(id: string, keyId: string, now: number): Promise<StoredResponse | undefined>;
  /** UTF-8 bytes of this key's unexpired turns (their `sizeBytes`), the per-key storage bound's measure. */
  storedBytes(keyId: string, now: number): Promise<number>;
  /** This key's newest unexpired turns, newest first, at most `limit`. */
  recent(keyId: string, now: number, limit: number): Promise<StoredResponse[]>;
  /** False when there was nothing of this key's to delete. */
  delete(id: string, keyId: string): Promise<boolean>;
  /** Drops rows expired at `now`; returns how many. */
  prune(now: number): Promise<number>;
}

export interface AppliedBatchRepository {
  /** Forgets batches applied before `time` (no retry can still come for them); returns how many. */
  pruneBefore(time: number): Promise<number>;
}

/** Operator accounts, their console sessions and the admin tokens they mint (issue 29). */
export interface AdminRepository {
  list(): Promise<Admin[]>;
  /** By id, or by name or e-mail (case-insensitive): the `login` of sign-in. */
  find(reference: string): Promise<Admin | undefined>;
  create(admin: NewAdmin): Promise<Admin>;
  update(id: string, patch: AdminPatch): Promise<Admin | undefined>;
  delete(id: string): Promise<boolean>;
  /** How many enabled owners exist: the last one may not be demoted, disabled or deleted. */
  countEnabledOwners(): Promise<number>;

  createSession(session: AdminSession): Promise<void>;
  /** The session if it exists and has not expired at `now`. */
  findSession(tokenHash: string, now: number): Promise<AdminSession | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Ends every session of one admin (removed, disabled, password or role changed). */
  deleteSessionsOf(adminId: string): Promise<void>;

  createToken(token: Omit<AdminToken, 'id' | 'createdAt'>): Promise<AdminToken>;
  /** The token if it exists and has not expired at `now`. */
  findToken(tokenHash: string, now: number): Promise<AdminToken | undefined>;
  listTokens(): Promise<AdminToken[]>;
  deleteToken(id: string): Promise<boolean>;
}

/** Sign-in factors, one-time links, sign-in providers and sealed settings (issue 29). */
export interface IdentityRepository {
  findTotp(owner: IdentityOwner): Promise<TotpFactor | undefined>;
  /** Replaces the owner's factor with a new, unconfirmed one. */
  saveTotp(owner: IdentityOwner, secret: string, recoveryHashes: string[]): Promise<void>;
  /** Records `step` as used if it is later than every step used before (true), confirming the factor when asked. */
  acceptTotpStep(owner: IdentityOwner, step: number, confirm: boolean): Promise<boolean>;
  /** Removes one unused recovery code of a confirmed factor; true for exactly one of concurrent uses. */
  useRecoveryCode(owner: IdentityOwner, codeHash: string): Promise<boolean>;
  deleteTotp(owner: IdentityOwner): Promise<boolean>;

  createOneTimeToken(token: Omit<OneTimeToken, 'createdAt' | 'usedAt'>): Promise<void>;
  /** Marks the link used if it is unused and unexpired at `now` and returns it; undefined otherwise (once, across instances). */
  consumeOneTimeToken(tokenHash: string, purpose: OneTimePurpose, now: number): Promise<OneTimeToken | undefined>;
  pruneOneTimeTokens(now: number): Promise<number>;

  listProviders(): Promise<SignInProvider[]>;
  findProvider(name: string): Promise<SignInProvider | undefined>;
  saveProvider(provider: Omit<SignInProvider, 'createdAt' | 'updatedAt'>): Promise<SignInProvider>;
  deleteProvider(name: string): Promise<boolean>;

  /** A setting sealed with the gateway secret (SMTP password, captcha secret); undefined when unset. */
  getSealedSetting(name: string): Promise<string | undefined>;
  setSealedSetting(name: string, value: string): Promise<void>;
}

/** One signed-in browser session as its owner sees it (issue 29). */
export interface SessionDevice {
  /** Public id: a prefix of the token's hash. */
  id: string;
  tokenHash: string;
  userAgent: string | null;
  clientIp: string | null;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

/** The sessions of one kind (portal or console) by owner: listed, touched, revoked. */
export interface SessionDeviceRepository {
  /** Records use (at most once a minute); with `userAgent`, at sign-in, also the device. */
  touch(tokenHash: string, at: number, userAgent?: string | null): Promise<void>;
  /** The owner's unexpired sessions, newest first. */
  list(ownerId: string, now: number): Promise<SessionDevice[]>;
  /** Ends one of the owner's sessions by its public id; false when the owner has none such. */
  revoke(ownerId: string, id: string): Promise<boolean>;
  /** Ends every session of the owner (sign out everywhere); how many ended. */
  revokeAll(ownerId: string): Promise<number>;
}

export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  groups: GroupRepository;
  channels: ChannelRepository;
  keys: ApiKeyRepository;
  prices: PriceRepository;
  /** Every price ever set, per scope (catalogue, sell, group, channel cost). */
  priceVersions: PriceVersionRepository;
  /** One row per upstream attempt and per payer (issue 27), and the upstreams' own bills. */
  ledger: LedgerRepository;
  usage: UsageLogRepository;
  /**
   * The console's heavy reads of usage (logs, insights, usage reports): on the read replica when
   * DATABASE_REPLICA_URL is set (rows appear there after the replication lag), else `usage`.
   * Never for billing: spend baselines read `usage`.
   */
  usageReads?: Pick<UsageLogRepository, 'query' | 'summarize' | 'aggregate'>;
  settings: SettingsRepository;
  /** Every admin change: who, what, before and after (see audit-log.ts). */
  audit: AuditLogRepository;
  users: UserRepository;
  plans: PlanRepository;
  subscriptions: SubscriptionRepository;
  redemptionCodes: RedemptionCodeRepository;
  /** The account portal's browser sessions and the wallet audit trail (issue 16). */
  accountSessions: AccountSessionRepository;
  walletAdjustments: WalletAdjustmentRepository;
  /** Stateful Responses turns, per API key (issue 17). */
  responses: StoredResponseRepository;
  /** Ids of charge batches already applied, so a retried batch is never applied twice. */
  appliedBatches: AppliedBatchRepository;
  /** Operator accounts, console sessions and minted admin tokens (issue 29). */
  admins: AdminRepository;
  /** Notification channels, rules and their claims; the outbox; notices; circuit history (issue 30). */
  notifications: NotificationRepository;
  outbox: NotificationOutboxRepository;
  announcements: AnnouncementRepository;
  circuitHistory: CircuitHistoryRepository;
  /** TOTP factors, one-time links, sign-in providers and sealed settings (issue 29). */
  identity: IdentityRepository;
  /** Passkeys (WebAuthn credentials) of account holders and admins (issue 29). */
  passkeys: PasskeyRepository;
  /** The device view of the portal's and the console's sessions (issue 29). */
  sessionDevices: { portal: SessionDeviceRepository; console: SessionDeviceRepository };
  /** Money in (issue 28): payment orders and debts, providers' settings, referral, promotion codes. */
  orders: OrderRepository;
  paymentProviders: PaymentProviderRepository;
  referrals: ReferralRepository;
  promotions: PromotionRepository;
  /** Withdrawals of released referral rebates (migration 040). */
  withdrawals: WithdrawalRepository;
  close(): Promise<void>;
}

export class StoreConflictError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'StoreConflictError';
  }
}
