import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPaymentWorld, type PaymentWorld } from './payment-harness.ts';

const sessionOf = (order: { checkoutUrl: string }) => order.checkoutUrl.split('/').pop() ?? '';

describe('Stripe payments against the Stripe simulator (SQLite)', { timeout: 120_000 }, () => {
  let world: PaymentWorld;
  before(async () => {
    world = await startPaymentWorld();
  });
  after(() => world.close());

  test('a paid checkout credits once; 20 concurrent replays of the signed event credit nothing more', async () => {
    const ann = await world.account('ann');
    const order = await ann.json('POST', '/orders', { provider: 'stripe', amountUsd: 10 }, 201);
    assert.equal(order.status, 'pending');
    assert.equal(order.amountUsd, 10);
    assert.equal(order.creditUsd, 10);
    assert.ok(order.checkoutUrl.startsWith(`${world.stripe.url}/c/pay/cs_test_`), order.checkoutUrl);
    assert.equal(world.stripe.sessions.get(sessionOf(order))?.amount_total, 1000);

    const paid = await world.stripe.pay(sessionOf(order));
    assert.equal(paid.status, 200);
    assert.equal((await ann.json('GET', `/orders/${order.id}`)).status, 'credited');
    const replays = await Promise.all(Array.from({ length: 20 }, () => world.stripe.deliver(paid.payload, paid.header)));
    assert.deepEqual(new Set(replays.map((reply) => reply.status)), new Set([200]));
    assert.equal((await world.balanceOf(ann.id)).balance, 10);
    assert.equal((await ann.json('GET', '')).user.balance, 10);
    const trail = (await world.harness.admin('GET', `/users/${ann.id}/top-ups`)).data as Array<{ note: string; amount: number }>;
    assert.equal(trail.filter((entry) => entry.note.includes('credited')).length, 1, JSON.stringify(trail));
    assert.ok(trail.some((entry) => entry.note.includes('paid through stripe')));
  });

  test('a forged or stale signature is refused (400) and credits nothing', async () => {
    const ben = await world.account('ben');
    const order = await ben.json('POST', '/orders', { provider: 'stripe', amountUsd: 5 }, 201);
    const { payload } = await world.stripe.pay(sessionOf(order), { deliver: false });
    const forged = await world.stripe.deliver(payload, world.stripe.sign(payload, undefined, 'whsec_not_the_secret'));
    assert.equal(forged.status, 400);
    const stale = await world.stripe.deliver(payload, world.stripe.sign(payload, Math.floor(Date.now() / 1000) - 301));
    assert.equal(stale.status, 400, 'Stripe documents a 300 s tolerance');
    const unsigned = await fetch(`${world.harness.url}/api/payments/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    assert.equal(unsigned.status, 400);
    assert.equal((await world.balanceOf(ben.id)).balance, 0);
    const admin = await world.harness.admin('GET', `/orders/${order.id}`);
    assert.equal(admin.status, 'pending');
  });

  test('an event whose amount differs from the order, correctly signed, is refused and credits nothing', async () => {
    const cat = await world.account('cat');
    const order = await cat.json('POST', '/orders', { provider: 'stripe', amountUsd: 20 }, 201);
    const { payload } = await world.stripe.pay(sessionOf(order), { deliver: false });
    const event = JSON.parse(payload);
    event.data.object.amount_total = 100;
    const tampered = JSON.stringify(event);
    assert.equal((await world.stripe.deliver(tampered, world.stripe.sign(tampered))).status, 400);
    event.data.object.amount_total = 2000;
    event.data.object.currency = 'eur';
    const otherCurrency = JSON.stringify(event);
    assert.equal((await world.stripe.deliver(otherCurrency, world.stripe.sign(otherCurrency))).status, 400);
    assert.equal((await world.balanceOf(cat.id)).balance, 0);
  });

  test('a pending order whose notification was lost is credited by asking Stripe; an unpaid one expires', async () => {
    const dan = await world.account('dan');
    const lost = await dan.json('POST', '/orders', { provider: 'stripe', amountUsd: 7 }, 201);
    const unpaid = await dan.json('POST', '/orders', { provider: 'stripe', amountUsd: 3 }, 201);
    await world.stripe.pay(sessionOf(lost), { deliver: false });
    world.advanceClock(2 * 3_600_000);
    assert.equal((await dan.json('GET', `/orders/${lost.id}`)).status, 'credited');
    assert.equal((await dan.json('GET', `/orders/${unpaid.id}`)).status, 'expired');
    assert.equal((await world.balanceOf(dan.id)).balance, 7);
  });

  test('a refund after partial spending takes back the unspent credit and records the rest as debt; the next top-up repays it', async () => {
    const eve = await world.account('eve');
    const order = await eve.json('POST', '/orders', { provider: 'stripe', amountUsd: 10 }, 201);
    await world.stripe.pay(sessionOf(order));
    await world.harness.admin('POST', `/users/${eve.id}/top-ups`, { amount: -4, note: 'usage (stands in for spending)' }, 201);

    const half = await world.harness.admin('POST', `/orders/${order.id}/refund`, { amountUsd: 5 });
    assert.equal(half.status, 'partially_refunded');
    assert.deepEqual(await world.balanceOf(eve.id), { balance: 1, debtUsd: 0 });
    const rest = await world.harness.admin('POST', `/orders/${order.id}/refund`, {});
    assert.equal(rest.status, 'refunded');
    assert.deepEqual(await world.balanceOf(eve.id), { balance: 0, debtUsd: 4 });
    assert.equal((await eve.json('GET', '')).debtUsd, 4);
    const refunds = world.stripe.refunds.filter((entry) => entry.paymentIntent === world.stripe.sessions.get(sessionOf(order))?.payment_intent);
    assert.deepEqual(
      refunds.map((entry) => entry.amount),
      [500, 500],
    );
    await world.harness.admin('POST', `/orders/${order.id}/refund`, {}, 400);

    const next = await eve.json('POST', '/orders', { provider: 'stripe', amountUsd: 10 }, 201);
    await world.stripe.pay(sessionOf(next));
    assert.deepEqual(await world.balanceOf(eve.id), { balance: 6, debtUsd: 0 });
  });

  test('top-up rules: below the minimum is refused; a bonus tier adds credit; secrets are masked in GET', async () => {
    const fay = await world.account('fay');
    assert.equal((await fay.call('POST', '/orders', { provider: 'stripe', amountUsd: 0.5 })).status, 400);
    const big = await fay.json('POST', '/orders', { provider: 'stripe', amountUsd: 100 }, 201);
    assert.equal(big.creditUsd, 110);
    const providers = JSON.stringify(await world.harness.admin('GET', '/payment-providers'));
    assert.ok(!providers.includes(world.stripe.secretKey) && !providers.includes(world.stripe.webhookSecret) && !providers.includes(world.epay.key), providers);
  });

  test('a monthly statement shows top-ups, bonuses, refunds and the closing balance, as JSON and CSV', async () => {
    const gus = await world.account('gus');
    const order = await gus.json('POST', '/orders', { provider: 'stripe', amountUsd: 100 }, 201);
    await world.stripe.pay(sessionOf(order));
    await world.harness.admin('POST', `/orders/${order.id}/refund`, { amountUsd: 50 });
    const month = ((await gus.json('GET', `/orders/${order.id}`)).creditedAt as string).slice(0, 7);
    const statement = await gus.json('GET', `/statements/${month}`);
    assert.deepEqual(
      [statement.topUpsMicros, statement.bonusesMicros, statement.refundsMicros, statement.closingBalanceMicros],
      [100_000_000, 10_000_000, -55_000_000, 55_000_000],
    );
    const csv = await (await gus.call('GET', `/statements/${month}?format=csv`)).text();
    assert.match(csv, /money in,top-ups,,100\.000000/);
    assert.match(csv, new RegExp(`balance,closing ${month},,55\\.000000`));
    assert.equal((await gus.call('GET', '/statements/2026-13')).status, 400);
  });
});
