import type { Generated } from 'kysely';
import type { AccountSessionsTable, WalletAdjustmentsTable } from './portal-tables.ts';
import type { StoredResponsesTable } from './stored-responses-table.ts';
import type { AppliedBatchesTable } from './applied-batches-table.ts';
import type { OneTimeTokensTable, PasskeysTable, SignInProvidersTable, TotpFactorsTable } from './identity-tables.ts';
import type { AdminSessionsTable, AdminsTable, AdminTokensTable } from './admin-tables.ts';
import type {
  AnnouncementsTable,
  CircuitHistoryTable,
  NotificationChannelsTable,
  NotificationClaimsTable,
  NotificationOutboxTable,
  NotificationRulesTable,
} from './notify-tables.ts';
import type { ReferralWithdrawalsTable } from './payout-tables.ts';
import type { LedgerAttemptsTable, LedgerChargesTable, PriceVersionsTable, UpstreamBillsTable } from './ledger-tables.ts';
import type {
  AccountDebtsTable,
  PaymentOrdersTable,
  PaymentProvidersTable,
  PromotionCodesTable,
  PromotionUsesTable,
  ReferralCodesTable,
  ReferralRebatesTable,
  ReferralsTable,
} from './payment-tables.ts';

// Re-exported: the repositories read every table's row type from this one schema module.
export type {
  AccountDebtsTable,
  PaymentOrdersTable,
  PaymentProvidersTable,
  PromotionCodesTable,
  PromotionUsesTable,
  ReferralCodesTable,
  ReferralRebatesTable,
  ReferralsTable,
} from './payment-tables.ts';

/**
 * Table shapes as Kysely sees them. Conventions shared by both dialects:
 * times are epoch ms in BIGINT, money is integer micro-USD in BIGINT, booleans are INTEGER 0/1,
 * lists and maps are JSON in TEXT. The PostgreSQL pool parses BIGINT to number (see open-database).
 */
export interface DatabaseSchema {
  groups: GroupsTable;
  channels: ChannelsTable;
  channel_groups: ChannelGroupsTable;
  api_keys: ApiKeysTable;
  model_prices: ModelPricesTable;
  usage_logs: UsageLogsTable;
  usage_hourly: UsageRollupTable;
  usage_daily: UsageRollupTable;
  settings: SettingsTable;
  audit_log: AuditLogTable;
  users: UsersTable;
  plans: PlansTable;
  subscriptions: SubscriptionsTable;
  subscription_usage: SubscriptionUsageTable;
  redemption_codes: RedemptionCodesTable;
  account_sessions: AccountSessionsTable;
  wallet_adjustments: WalletAdjustmentsTable;
  stored_responses: StoredResponsesTable;
  applied_batches: AppliedBatchesTable;
  admins: AdminsTable;
  price_versions: PriceVersionsTable;
  ledger_attempts: LedgerAttemptsTable;
  ledger_charges: LedgerChargesTable;
  upstream_bills: UpstreamBillsTable;
  admin_sessions: AdminSessionsTable;
  admin_tokens: AdminTokensTable;
  notification_channels: NotificationChannelsTable;
  notification_rules: NotificationRulesTable;
  notification_claims: NotificationClaimsTable;
  notification_outbox: NotificationOutboxTable;
  announcements: AnnouncementsTable;
  circuit_history: CircuitHistoryTable;
  totp_factors: TotpFactorsTable;
  one_time_tokens: OneTimeTokensTable;
  passkeys: PasskeysTable;
  sign_in_providers: SignInProvidersTable;
  payment_orders: PaymentOrdersTable;
  payment_providers: PaymentProvidersTable;
  account_debts: AccountDebtsTable;
  referral_codes: ReferralCodesTable;
  referrals: ReferralsTable;
  referral_rebates: ReferralRebatesTable;
  promotion_codes: PromotionCodesTable;
  promotion_uses: PromotionUsesTable;
  referral_withdrawals: ReferralWithdrawalsTable;
}

export interface GroupsTable {
  name: string;
  description: string;
  price_multiplier: number;
  billing: Generated<string>;
  /** JSON array of `GroupFeatureClass` (migration 010). */
  allowed_features: Generated<string>;
  created_at: number;
}

export interface ChannelsTable {
  id: string;
  name: string;
  provider: string;
  base_url: string;
  /** SecretBox-sealed JSON array of upstream secrets. */
  api_keys_sealed: string;
  models: string;
  model_map: string;
  priority: number;
  weight: number;
  enabled: number;
  supports_responses: number;
  allowed_prefixes: string;
  api_version: string | null;
  region: string | null;
  project: string | null;
  created_at: number;
  updated_at: number;
}

/** Which groups a channel serves; `position` keeps the order the channel was given. */
export interface ChannelGroupsTable {
  channel_id: string;
  group_name: string;
  position: number;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  group_name: string;
  key_hash: string;
  key_hint: string;
  expires_at: number | null;
  balance_micros: number | null;
  spent_micros: Generated<number>;
  allowed_models: string | null;
  allowed_ips: string | null;
  enabled: number;
  limits: string;
  user_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface ModelPricesTable {
  model: string;
  input_per_million: number;
  output_per_million: number;
  cache_read_per_million: number | null;
  cache_write_per_million: number | null;
  /** Migration 010; absent on rows read through an older schema. */
  web_search_per_thousand: number | null;
  /** Migration 014: the model's ImagePrice as JSON (micro-USD); null: none. */
  image_prices: string | null;
  /** Migration 034: the model's MediaPrice as JSON (micro-USD); null: none. */
  media_prices: string | null;
  /** Migration 016: ExtraRates as JSON; null: none. */
  extra_rates: string | null;
  /** Migration 016: the price version this row was set as. */
  version: string | null;
  updated_at: number;
}

export interface UsageLogsTable {
  request_id: string;
  time: number;
  key_id: string | null;
  key_name: string | null;
  group_name: string | null;
  model: string | null;
  upstream_model: string | null;
  channel_id: string | null;
  channel_name: string | null;
  client_protocol: string | null;
  upstream_protocol: string | null;
  surface: string | null;
  status: number;
  error_code: string | null;
  error_message: string | null;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  cost_micros: number;
  latency_ms: number;
  ttft_ms: number | null;
  stream: number;
  warnings: string;
  attempts: string;
  client_ip: string | null;
  user_id: string | null;
  paid_by: string | null;
  subscription_id: string | null;
  /** `http` or `websocket` (migration 010). */
  transport: string;
}

/**
 * usage_logs summed per UTC hour (usage_hourly, migration 043) or day (usage_daily, 044) × key ×
 * model × group ('' for a missing one), plus one count per latency bin in `lat_0` … `lat_28`.
 */
export interface UsageRollupTable {
  period_start: number;
  key_id: string;
  model: string;
  group_name: string;
  key_name: string | null;
  requests: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  cost_micros: number;
  [bin: `lat_${number}`]: number;
}

export interface SettingsTable {
  name: string;
  value: string;
  updated_at: number;
}

export interface AuditLogTable {
  id: string;
  time: number;
  actor: string;
  client_ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  target_name: string | null;
  before: string | null;
  after: string | null;
}

export interface UsersTable {
  id: string;
  name: string;
  email: string | null;
  password_hash: string | null;
  balance_micros: number;
  spent_micros: number;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export interface PlansTable {
  id: string;
  name: string;
  group_name: string;
  duration_days: number;
  quota_daily_micros: number | null;
  quota_weekly_micros: number | null;
  quota_monthly_micros: number | null;
  quota_total_micros: number | null;
  price_micros: number | null;
  description: string;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionsTable {
  id: string;
  user_id: string;
  plan_id: string;
  starts_at: number;
  expires_at: number;
  suspended: number;
  created_at: number;
  updated_at: number;
}

/** Settled usage per subscription and window; the kv counters are seeded from it. */
export interface SubscriptionUsageTable {
  subscription_id: string;
  window_id: string;
  used_micros: number;
}

export interface RedemptionCodesTable {
  id: string;
  code_hash: string;
  kind: string;
  amount_micros: number | null;
  plan_id: string | null;
  expires_at: number | null;
  used_at: number | null;
  used_by_user_id: string | null;
  used_by_key_id: string | null;
  created_at: number;
}
