import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRuntime } from '../../src/core/create-runtime.ts';
import { startEpaySimulator, type EpaySimulator } from '../payments/epay-simulator.ts';
import { PASSWORD, signIn, type Portal } from '../payments/payment-harness.ts';
import { startStripeSimulator, type StripeSimulator } from '../payments/stripe-simulator.ts';
import { startScaleHarness, type ScaleHarness } from './scale-harness.ts';

const DAY = 86_400_000;
const sessionOf = (order: { checkoutUrl: string }) => order.checkoutUrl.split('/').pop() ?? '';

describe('payments on two instances sharing PostgreSQL and Redis', { timeout: 180_000 }, () => {
  let harness: ScaleHarness;
  let stripe: StripeSimulator;
  let epay: EpaySimulator;
  let offset = 0;
  const now = () => Date.now() + offset;
  const balanceOf = async (id: string) => {
    const user = (await harness.admin(1, 'GET', `/users/${id}`)) as { balance: number; debtUsd: number };
    return { balance: user.balance, debtUsd: user.debtUsd };
  };
  const account = async (name: string, extra: Record<string, unknown> = {}): Promise<Portal> => {
    const user = await harness.admin(0, 'POST', '/users', { name, password: PASSWORD, ...extra }, 201);
    return signIn(harness.instances[0]?.url ?? '', user.id, name);
  };

  before(async () => {
    harness = await startScaleHarness({ overrides: { runtime: { ...createRuntime(), now } } });
    stripe = await startStripeSimulator({ now });
    epay = await startEpaySimulator();
    await harness.admin(0, 'PATCH', '/payment-providers/stripe', {
      enabled: true,
      secretKey: stripe.secretKey,
      webhookSecret: stripe.webhookSecret,
      apiBase: stripe.url,
    });
    await harness.admin(0, 'PATCH', '/payment-providers/epay', { enabled: true, pid: epay.pid, key: epay.key, apiBase: epay.url });
    await harness.admin(0, 'PATCH', '/account-settings', { exchangeRates: { CNY: 7.2 }, referral: { ratePercent: 10, holdDays: 7 } });
  });
  after(async () => {
    await harness.close();
    await stripe.close();
    await epay.close();
  });

  test('20 concurrent replays of one Stripe event, split over both instances, credit once', async () => {
    const ann = await account('ann');
    const order = await ann.json('POST', '/orders', { provider: 'stripe', amountUsd: 10 }, 201);
    const { payload, header } = await stripe.pay(sessionOf(order), { deliver: false });
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        fetch(`${harness.instances[index % 2]?.url}/api/payments/stripe/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': header },
          body: payload,
        }),
      ),
    );
    assert.deepEqual(new Set(replies.map((reply) => reply.status)), new Set([200]));
    console.log(`[figures postgres+redis stripe replays] 20 notifications over 2 instances in ${Date.now() - started} ms, credited once`);
    assert.equal((await balanceOf(ann.id)).balance, 10);
    const rows = await harness.query<{ n: string }>("select count(*) as n from wallet_adjustments where user_id = $1 and note like '%credited%'", [ann.id]);
    assert.equal(Number(rows[0]?.n), 1);
  });

  test('20 concurrent Epay notifications over both instances credit once; two concurrent refunds on both instances refund once', async () => {
    const ben = await account('ben');
    const order = await ben.json('POST', '/orders', { provider: 'epay', amountUsd: 10 }, 201);
    await epay.open(order.checkoutUrl);
    const { params } = await epay.pay(order.id, { deliver: false });
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, index) =>
        (await fetch(`${harness.instances[index % 2]?.url}/api/payments/epay/notify?${new URLSearchParams(params)}`)).text(),
      ),
    );
    assert.deepEqual(new Set(answers), new Set(['success']));
    assert.equal((await balanceOf(ben.id)).balance, 10);

    const refunds = await Promise.all(
      [0, 1].map((index) => harness.admin(index, 'POST', `/orders/${order.id}/refund`, {}, undefined).catch((error: Error) => error)),
    );
    const succeeded = refunds.filter((result) => !(result instanceof Error));
    assert.equal(succeeded.length, 1, refunds.map(String).join(' | '));
    assert.equal(epay.trades.get(order.id)?.refundedFen, 7200, 'Epay refunded once');
    assert.deepEqual(await balanceOf(ben.id), { balance: 0, debtUsd: 0 });
  });

  test('a held rebate released by both instances at once is credited once; a refund claws it back', async () => {
    const cat = await account('cat');
    const code = (await cat.json('GET', '/referral')).code as string;
    const dan = await account('dan', { referralCode: code });
    const order = await dan.json('POST', '/orders', { provider: 'stripe', amountUsd: 30 }, 201);
    await stripe.pay(sessionOf(order), { deliver: false });
    assert.equal((await dan.json('GET', `/orders/${order.id}`)).status, 'credited');
    offset += 8 * DAY;
    const portals = await Promise.all(harness.instances.map((instance) => signIn(instance.url, cat.id, 'cat')));
    const views = await Promise.all(portals.flatMap((portal) => [portal.json('GET', '/referral'), portal.json('GET', '/referral')]));
    assert.ok(views.every((view) => view.creditedUsd === 3 || view.pendingUsd === 3));
    assert.equal((await balanceOf(cat.id)).balance, 3);
    await harness.admin(1, 'POST', `/orders/${order.id}/refund`, { amountUsd: 10 });
    assert.deepEqual(await balanceOf(cat.id), { balance: 2, debtUsd: 0 });
  });

  test('20 withdrawal requests for the same rebate, split over both instances, hold it once; rejections on both instances return it once', async () => {
    await harness.admin(0, 'PATCH', '/account-settings', { referral: { ratePercent: 10, holdDays: 7, withdrawalsEnabled: true, withdrawMinUsd: 1 } });
    const eve = await account('eve');
    const code = (await eve.json('GET', '/referral')).code as string;
    const fay = await account('fay', { referralCode: code });
    const order = await fay.json('POST', '/orders', { provider: 'stripe', amountUsd: 50 }, 201);
    await stripe.pay(sessionOf(order), { deliver: false });
    assert.equal((await fay.json('GET', `/orders/${order.id}`)).status, 'credited');
    offset += 8 * DAY;
    const portals = await Promise.all(harness.instances.map((instance) => signIn(instance.url, eve.id, 'eve')));
    assert.equal((await portals[0]?.json('GET', '/referral'))?.withdrawableUsd, 5);
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) => portals[index % 2]?.call('POST', '/referral/withdrawals', { amountUsd: 5, payoutTo: 'alipay: eve' })),
    );
    const elapsed = Date.now() - started;
    const statuses = replies.map((reply) => reply?.status);
    assert.equal(statuses.filter((status) => status === 201).length, 1, `one request holds the rebate: ${statuses.join(',')} in ${elapsed} ms`);
    assert.equal((await balanceOf(eve.id)).balance, 0);
    console.log(
      `[figures postgres+redis rebate withdrawals] 20 requests over 2 instances in ${elapsed} ms: ${statuses.filter((status) => status === 201).length} held`,
    );
    const [held] = (await harness.admin(0, 'GET', `/referral-withdrawals?user=${eve.id}`)).data as Array<{ id: string }>;
    const rejections = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) => harness.admin(index % 2, 'POST', `/referral-withdrawals/${held?.id}/reject`, {})),
    );
    assert.equal(rejections.filter((outcome) => outcome.status === 'fulfilled').length, 1);
    assert.deepEqual(await balanceOf(eve.id), { balance: 5, debtUsd: 0 });
  });
});
