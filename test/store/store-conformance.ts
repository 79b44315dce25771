import { after, afterEach, before, beforeEach, describe } from 'node:test';
import { describeAdmins } from './conformance/admins-conformance.ts';
import { describeChannels } from './conformance/channels-conformance.ts';
import type { ConformanceContext } from './conformance/conformance-context.ts';
import { createTestClock } from './conformance/conformance-context.ts';
import { describeGroups } from './conformance/groups-conformance.ts';
import { describeKeys } from './conformance/keys-conformance.ts';
import { describeLedger } from './conformance/ledger-conformance.ts';
import { describeMigrations } from './conformance/migrations-conformance.ts';
import { describePasskeys } from './conformance/passkeys-conformance.ts';
import { describePricesAndSettings } from './conformance/prices-settings-conformance.ts';
import { describeStoredResponses } from './conformance/stored-responses-conformance.ts';
import { describeUsage } from './conformance/usage-conformance.ts';
import { describeUsageAggregate } from './conformance/usage-aggregate-conformance.ts';
import { describeUsageSummary } from './conformance/usage-summary-conformance.ts';
import { describeUsageRollup } from './conformance/usage-rollup-conformance.ts';
import type { StoreHarness } from './store-harness.ts';

/**
 * The one behaviour every Store implementation must show. Each test gets an empty database and
 * a store opened on it with a frozen clock.
 */
export function runStoreConformance(name: string, createHarness: () => Promise<StoreHarness>): void {
  describe(name, () => {
    // Filled in by the hooks before any test runs.
    const context = {} as ConformanceContext;

    before(async () => {
      context.harness = await createHarness();
    });
    after(async () => {
      await context.harness?.dispose();
    });
    beforeEach(async () => {
      await context.harness.reset();
      context.clock = createTestClock();
      context.store = await context.harness.open({ now: context.clock.now });
    });
    afterEach(async () => {
      await context.store.close();
    });

    describeGroups(context);
    describeChannels(context);
    describeKeys(context);
    describePricesAndSettings(context);
    describeUsage(context);
    describeUsageAggregate(context);
    describeUsageSummary(context);
    describeUsageRollup(context);
    describeLedger(context);
    describeStoredResponses(context);
    describeAdmins(context);
    describePasskeys(context);
    describeMigrations(context);
  });
}
