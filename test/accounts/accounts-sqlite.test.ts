import { after, before, describe, test } from 'node:test';
import { createRuntime } from '../../src/core/create-runtime.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import {
  fallThrough,
  holdsSurviveRedemption,
  holdsSurviveRenames,
  quotaUnderConcurrency,
  redemptionRace,
  setUpPricing,
  walletUnderConcurrency,
  windowRollOver,
  type Target,
} from './account-scenarios.ts';

describe('accounts on SQLite (one gateway)', () => {
  let harness: Harness;
  let target: Target;
  let channelGroups: string[] = ['default'];
  let channelId = '';
  // An injected clock: it follows real time until a test moves it forward.
  let offset = 0;
  const runtime = { ...createRuntime(), now: () => Date.now() + offset };

  before(async () => {
    harness = await startHarness({ runtime });
    channelId = (await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] })).id;
    await setUpPricing(harness.admin);
    harness.simulator.setDefault({ text: 'ok', usage: { input: 40, output: 100 } });
    target = {
      admin: harness.admin,
      urls: [harness.url],
      setUpstreamDelay: (ms) => harness.simulator.setDefault({ text: 'ok', usage: { input: 40, output: 100 }, delayMs: ms || 0 }),
      advanceClock: (ms) => {
        offset += ms;
      },
      async flushAndReadLogs(keyIds) {
        const rows = [];
        for (const id of keyIds) rows.push(...(await harness.admin('GET', `/logs?key=${id}&limit=1000`)).data);
        return rows;
      },
    };
  });
  after(() => harness.close());

  const serveGroup = async (group: string) => {
    channelGroups = [...channelGroups, group];
    await harness.admin('PATCH', `/channels/${channelId}`, { groups: channelGroups });
  };

  test('200 parallel requests against a daily quota covering 20: 20 served, 180 subscription_quota_exhausted, usage never above the quota', async () => {
    const figures = await quotaUnderConcurrency(target, serveGroup);
    console.log(`[figures sqlite quota] ${JSON.stringify(figures)}`);
  });

  test('200 parallel requests over three keys of one user against a wallet covering 20: 20 served, wallet exactly 0', async () => {
    const figures = await walletUnderConcurrency(target);
    console.log(`[figures sqlite wallet] ${JSON.stringify(figures)}`);
  });

  test('a code redeemed while 10 streams hold a wallet covering 10: exactly one more stream is served, the wallet ends at 0 (issue 23 item 2)', async () => {
    const figures = await holdsSurviveRedemption(target);
    console.log(`[figures sqlite redeem mid-flight] ${JSON.stringify(figures)}`);
  });

  test('a key renamed four times while 10 streams hold its balance covering 10: no further stream is served, the balance ends at 0 (issue 23 item 2)', async () => {
    const figures = await holdsSurviveRenames(target);
    console.log(`[figures sqlite rename mid-flight] ${JSON.stringify(figures)}`);
  });

  test('50 parallel redemptions of one code: exactly one succeeds', async () => {
    const figures = await redemptionRace(target);
    console.log(`[figures sqlite redeem] ${JSON.stringify(figures)}`);
  });

  test('subscription_then_balance falls through to the wallet exactly when the quota runs out', async () => {
    await fallThrough(target, serveGroup);
  });

  test('a daily window rolls over (injected clock) and the quota is usable again', async () => {
    await windowRollOver(target, serveGroup);
  });
});
