import { generateId as generateRandomId } from './generate-id.ts';
import type { IdPrefix } from './generate-id.ts';
import { runMigrations } from './migrations/run-migrations.ts';
import { openDatabase } from './open-database.ts';
import { parseDatabaseUrl, type DatabaseSettings } from './parse-database-url.ts';
import { createAuditLogRepository } from './repositories/audit-log-repository.ts';
import { createIdentityRepository } from './repositories/identity-repository.ts';
import { createPasskeyRepository } from './repositories/passkey-repository.ts';
import { createSessionDeviceRepository } from './repositories/session-device-repository.ts';
import { createAdminRepository } from './repositories/admin-repository.ts';
import { createAccountSessionRepository } from './repositories/account-session-repository.ts';
import { createApiKeyRepository } from './repositories/api-key-repository.ts';
import { createWalletAdjustmentRepository } from './repositories/wallet-adjustment-repository.ts';
import { createChannelRepository } from './repositories/channel-repository.ts';
import { createGroupRepository } from './repositories/group-repository.ts';
import { createPriceRepository } from './repositories/price-repository.ts';
import { createPriceVersionRepository } from './repositories/price-version-repository.ts';
import { createLedgerRepository } from './repositories/ledger-repository.ts';
import { createSettingsRepository } from './repositories/settings-repository.ts';
import { createStoredResponseRepository } from './repositories/stored-response-repository.ts';
import { createAppliedBatchRepository } from './repositories/applied-batch-repository.ts';
import { createUsageLogRepository } from './repositories/usage-log-repository.ts';
import { createPlanRepository } from './repositories/plan-repository.ts';
import { createRedemptionCodeRepository } from './repositories/redemption-code-repository.ts';
import { createSubscriptionRepository } from './repositories/subscription-repository.ts';
import { createUserRepository } from './repositories/user-repository.ts';
import { createNotificationRepository } from './repositories/notification-repository.ts';
import { createNotificationOutboxRepository } from './repositories/notification-outbox-repository.ts';
import { createAnnouncementRepository, createCircuitHistoryRepository } from './repositories/announcement-repository.ts';
import { createOrderRepository } from './repositories/order-repository.ts';
import { createPaymentProviderRepository } from './repositories/payment-provider-repository.ts';
import { createReferralRepository } from './repositories/referral-repository.ts';
import { createPromotionRepository } from './repositories/promotion-repository.ts';
import { createWithdrawalRepository } from './repositories/withdrawal-repository.ts';
import { createSecretBox } from './secret-box.ts';
import type { Store } from './store.ts';
import type { StoreContext } from './store-context.ts';
import { verifySecretAtStart } from './secret-check.ts';

export interface CreateStoreOptions {
  /** `sqlite:<path>`, `sqlite::memory:`, `postgres://…` or `postgresql://…`. */
  databaseUrl: string;
  /** The gateway secret (see loadGatewaySecret); channel secrets are encrypted with a key derived from it. */
  secretKey: Buffer;
  /** Pool size and statement timeout (PostgreSQL). */
  database?: DatabaseSettings;
  /** Clock for createdAt/updatedAt; defaults to Date.now. */
  now?: () => number;
  /** Record ids; defaults to random prefixed base62 ids. */
  generateId?: (prefix: IdPrefix) => string;
}

/** Opens the database, brings its schema up to date and returns the repositories. */
export async function createStore(options: CreateStoreOptions): Promise<Store> {
  const location = parseDatabaseUrl(options.databaseUrl);
  const { db, sqlite } = openDatabase(location, options.database);
  // Migrations and writes never go to the replica; only the console's usage reads do.
  const replica = options.database?.replicaUrl === undefined ? undefined : openDatabase(parseDatabaseUrl(options.database.replicaUrl), options.database).db;
  const context: StoreContext = {
    db,
    dialect: location.dialect,
    sqlite,
    now: options.now ?? Date.now,
    generateId: options.generateId ?? generateRandomId,
    secretBox: createSecretBox(options.secretKey),
  };
  try {
    await runMigrations(db, location.dialect);
    await verifySecretAtStart(db, context.secretBox, context.now);
  } catch (error) {
    await db.destroy();
    await replica?.destroy();
    throw error;
  }

  return {
    dialect: location.dialect,
    groups: createGroupRepository(context),
    channels: createChannelRepository(context),
    keys: createApiKeyRepository(context),
    prices: createPriceRepository(context),
    priceVersions: createPriceVersionRepository(context),
    ledger: createLedgerRepository(context),
    usage: createUsageLogRepository(context),
    usageReads: createUsageLogRepository(replica === undefined ? context : { ...context, db: replica, sqlite: undefined }),
    accountSessions: createAccountSessionRepository(context),
    walletAdjustments: createWalletAdjustmentRepository(context),
    settings: createSettingsRepository(context),
    audit: createAuditLogRepository(context),
    users: createUserRepository(context),
    plans: createPlanRepository(context),
    subscriptions: createSubscriptionRepository(context),
    redemptionCodes: createRedemptionCodeRepository(context),
    responses: createStoredResponseRepository(context),
    appliedBatches: createAppliedBatchRepository(context),
    admins: createAdminRepository(context),
    notifications: createNotificationRepository(context),
    outbox: createNotificationOutboxRepository(context),
    announcements: createAnnouncementRepository(context),
    circuitHistory: createCircuitHistoryRepository(context),
    identity: createIdentityRepository(context),
    passkeys: createPasskeyRepository(context),
    sessionDevices: { portal: createSessionDeviceRepository(context, 'account_sessions'), console: createSessionDeviceRepository(context, 'admin_sessions') },
    orders: createOrderRepository(context),
    paymentProviders: createPaymentProviderRepository(context),
    referrals: createReferralRepository(context),
    promotions: createPromotionRepository(context),
    withdrawals: createWithdrawalRepository(context),
    async close() {
      await db.destroy();
      await replica?.destroy();
    },
  };
}
