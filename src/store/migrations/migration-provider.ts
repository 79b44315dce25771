import type { Migration, MigrationProvider } from 'kysely';
import { initialMigration } from './001-initial.ts';
import { operabilityAuditLogMigration } from './003-operability-audit-log.ts';
import { accountsMigration } from './002-accounts.ts';
import { portalSessionsMigration } from './007-portal-sessions.ts';
import { cloudChannelSettingsMigration } from './006-clouds-channel-settings.ts';
import { storedResponsesMigration } from './008-responses-stored-responses.ts';
import { appliedBatchesMigration } from './009-billing-applied-batches.ts';
import { responsesContextTokensMigration } from './012-responses-context-tokens.ts';
import { keyNamesPerAccountMigration } from './011-portal-key-names-per-account.ts';
import { providerFeaturesMigration } from './010-provider-features.ts';
import { usageTransportMigration } from './013-usage-transport.ts';
import { imagePricesMigration } from './014-image-prices.ts';
import { adminAccountsMigration } from './015-admin-accounts.ts';
import { notificationsMigration } from './028-notify-notifications.ts';
import { announcementsMigration } from './029-notify-announcements.ts';
import { circuitHistoryMigration } from './030-notify-circuit-history.ts';
import { mediaPricesMigration } from './034-media-prices.ts';
import { priceVersionsMigration } from './016-price-versions.ts';
import { ledgerMigration } from './017-ledger.ts';
import { reconciliationMigration } from './018-reconciliation.ts';
import { identityMigration } from './024-identity.ts';
import { sessionDevicesMigration } from './025-session-devices.ts';
import { passkeysMigration } from './026-passkeys.ts';
import { paymentOrdersMigration } from './020-payments-orders.ts';
import { referralsPromotionsMigration } from './021-referrals-promotions.ts';
import { usageLogFilterIndexesMigration } from './037-usage-log-filter-indexes.ts';
import { usageSummaryCoveringIndexMigration } from './038-usage-summary-covering-index.ts';
import { ledgerRawUsageMigration } from './039-ledger-raw-usage.ts';
import { referralWithdrawalsMigration } from './040-referral-withdrawals.ts';
import { notifyChannelRolesMigration } from './041-notify-channel-roles.ts';
import { usageHourlyRollupMigration } from './043-usage-hourly-rollup.ts';
import { usageDailyRollupMigration } from './044-usage-daily-rollup.ts';

/**
 * Migrations live in code (not a folder scanned at run time) so they ship inside the bundle.
 * Names sort in run order; never rename or edit one that has shipped, add a new one instead.
 */
export const STORE_MIGRATIONS: Record<string, Migration> = {
  '001-initial': initialMigration,
  '003-operability-audit-log': operabilityAuditLogMigration,
  '002-accounts': accountsMigration,
  '007-portal-sessions': portalSessionsMigration,
  '006-clouds-channel-settings': cloudChannelSettingsMigration,
  '008-responses-stored-responses': storedResponsesMigration,
  '009-billing-applied-batches': appliedBatchesMigration,
  '012-responses-context-tokens': responsesContextTokensMigration,
  '011-portal-key-names-per-account': keyNamesPerAccountMigration,
  '010-provider-features': providerFeaturesMigration,
  '013-usage-transport': usageTransportMigration,
  '014-image-prices': imagePricesMigration,
  '015-admin-accounts': adminAccountsMigration,
  '028-notify-notifications': notificationsMigration,
  '029-notify-announcements': announcementsMigration,
  '030-notify-circuit-history': circuitHistoryMigration,
  '034-media-prices': mediaPricesMigration,
  '016-price-versions': priceVersionsMigration,
  '017-ledger': ledgerMigration,
  '018-reconciliation': reconciliationMigration,
  '024-identity': identityMigration,
  '025-session-devices': sessionDevicesMigration,
  '026-passkeys': passkeysMigration,
  '020-payments-orders': paymentOrdersMigration,
  '021-referrals-promotions': referralsPromotionsMigration,
  '037-usage-log-filter-indexes': usageLogFilterIndexesMigration,
  '038-usage-summary-covering-index': usageSummaryCoveringIndexMigration,
  '039-ledger-raw-usage': ledgerRawUsageMigration,
  '040-referral-withdrawals': referralWithdrawalsMigration,
  '041-notify-channel-roles': notifyChannelRolesMigration,
  '043-usage-hourly-rollup': usageHourlyRollupMigration,
  '044-usage-daily-rollup': usageDailyRollupMigration,
};

export const storeMigrationProvider: MigrationProvider = {
  async getMigrations() {
    return STORE_MIGRATIONS;
  },
};
