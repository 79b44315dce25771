import { after, before, describe, test } from 'node:test';
import { createRuntime } from '../../src/core/create-runtime.ts';
import {
  COST,
  fallThrough,
  holdsSurviveRedemption,
  holdsSurviveRenames,
  quotaUnderConcurrency,
  redemptionRace,
  setUpPricing,
  walletUnderConcurrency,
  windowRollOver,
  type Target,
} from '../accounts/account-scenarios.ts';
import { addSimulatorChannel, startScaleHarness, type ScaleHarness } from './scale-harness.ts';

describe('accounts on two instances sharing PostgreSQL and Redis', () => {
  let harness: ScaleHarness;
  let target: Target;
  let channelId = '';
  let groups = ['default'];
  // One injected clock for both instances: it follows real time until a test moves it on.
  let offset = 0;
  before(async () => {
    harness = await startScaleHarness({ overrides: { runtime: { ...createRuntime(), now: () => Date.now() + offset } } });
    channelId = (await addSimulatorChannel(harness, 0)).id;
    await setUpPricing((method, path, body, status) => harness.admin(0, method, path, body, status));
    harness.simulator.setDefault({ text: 'ok', usage: { input: 10, output: 100 }, delayMs: 5 });
    target = {
      // Changes go through A; B learns them by pub/sub, and the scenarios wait until it has.
      admin: (method, path, body, status) => harness.admin(0, method, path, body, status),
      urls: harness.instances.map((instance) => instance.url),
      setUpstreamDelay: (ms) => harness.simulator.setDefault({ text: 'ok', usage: { input: 10, output: 100 }, delayMs: ms || 5 }),
      advanceClock: (ms) => {
        offset += ms;
      },
      async flushAndReadLogs(keyIds) {
        // Both instances' usage writers: /logs flushes the one it is asked on.
        for (let index = 0; index < harness.instances.length; index += 1) await harness.admin(index, 'GET', '/logs?limit=1');
        const rows = await harness.query<{
          status: number;
          error_code: string | null;
          cost_micros: number;
          paid_by: string | null;
          subscription_id: string | null;
        }>('select status, error_code, cost_micros, paid_by, subscription_id from usage_logs where key_id = any($1)', [keyIds]);
        return rows.map((row) => ({
          status: Number(row.status),
          errorCode: row.error_code,
          costMicros: Number(row.cost_micros),
          paidBy: row.paid_by,
          subscriptionId: row.subscription_id,
        }));
      },
    };
  });
  after(() => harness.close());

  const serveGroup = async (group: string) => {
    groups = [...groups, group];
    await harness.admin(0, 'PATCH', `/channels/${channelId}`, { groups });
  };

  test('200 parallel requests split over both against a daily quota covering 20: at most 20 served, usage never above the quota', async () => {
    const figures = await quotaUnderConcurrency(target, serveGroup);
    console.log(`[figures postgres+redis quota] ${JSON.stringify(figures)} (cost ${COST} micro-USD a request)`);
  });

  test('200 parallel requests split over both, three keys of one user, against a wallet covering 20', async () => {
    const figures = await walletUnderConcurrency(target);
    console.log(`[figures postgres+redis wallet] ${JSON.stringify(figures)}`);
  });

  test('a code redeemed while 10 streams hold a wallet covering 10: exactly one more stream is served, the wallet ends at 0 (issue 23 item 2)', async () => {
    const figures = await holdsSurviveRedemption(target);
    console.log(`[figures postgres+redis redeem mid-flight] ${JSON.stringify(figures)}`);
  });

  test('a key renamed four times while 10 streams hold its balance covering 10: no further stream is served, the balance ends at 0 (issue 23 item 2)', async () => {
    const figures = await holdsSurviveRenames(target);
    console.log(`[figures postgres+redis rename mid-flight] ${JSON.stringify(figures)}`);
  });

  test('50 parallel redemptions of one code split over both: exactly one succeeds', async () => {
    const figures = await redemptionRace(target);
    console.log(`[figures postgres+redis redeem] ${JSON.stringify(figures)}`);
  });

  test('subscription_then_balance falls through exactly when the quota runs out, across both', async () => {
    await fallThrough(target, serveGroup);
  });

  test('a daily window rolls over (injected clock) and the quota is usable again on both', async () => {
    await windowRollOver(target, serveGroup);
  });
});
