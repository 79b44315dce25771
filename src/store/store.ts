import type { ApiKey, ApiKeyPatch, NewApiKey } from '../domain/api-key.ts';
import type { Channel, ChannelPatch, NewChannel } from '../domain/channel.ts';
import type { Group, GroupPatch, NewGroup } from '../domain/group.ts';
import type { ModelPrice, NewModelPrice } from '../domain/model-price.ts';
import type { NewPriceVersion, PriceScope, PriceVersion } from '../domain/price-version.ts';
import type { LedgerRepository } from './ledger-repository-port.ts';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import type { AuditLogRepository } from './audit-log.ts';
import type { StoredResponse } from '../domain/stored-response.ts';
import type { PasskeyRepository } from './passkey-repository-port.ts';
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
import type { PlanRepository, RedemptionCodeRepository, SubscriptionRepository, UserRepository } from './account-ports.ts';
import type { AdminRepository, IdentityRepository, SessionDeviceRepository } from './people-ports.ts';

// The ports by concern live beside this file; re-exported so every importer keeps one entry point.
export type {
  AccountsTransaction,
  PlanRepository,
  RedemptionCodeRepository,
  SubscriptionRepository,
  SubscriptionUsageRow,
  UserRepository,
} from './account-ports.ts';
export type { AdminRepository, IdentityRepository, SessionDevice, SessionDeviceRepository } from './people-ports.ts';
export type { PasskeyRepository } from './passkey-repository-port.ts';

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
