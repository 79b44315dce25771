import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPaymentWorld, type PaymentWorld } from './payment-harness.ts';

describe('Epay payments against the Epay simulator (SQLite)', { timeout: 120_000 }, () => {
  let world: PaymentWorld;
  const notifyUrl = () => `${world.harness.url}/api/payments/epay/notify`;
  before(async () => {
    world = await startPaymentWorld();
  });
  after(() => world.close());

  test('a paid checkout credits once, charged in yuan at the operator rate; 20 concurrent replays all answer success and credit nothing more', async () => {
    const ann = await world.account('ann');
    const order = await ann.json('POST', '/orders', { provider: 'epay', amountUsd: 10 }, 201);
    assert.equal(order.currency, 'cny');
    assert.equal(order.chargeAmount, 72);
    assert.match(await world.epay.open(order.checkoutUrl), /支付 ¥72\.00/, 'submit.php accepted the signed page jump');
    const { params, answer } = await world.epay.pay(order.id);
    assert.equal(answer, 'success');
    assert.equal((await ann.json('GET', `/orders/${order.id}`)).status, 'credited');
    const trade = world.epay.trades.get(order.id);
    assert.ok(trade);
    const replays = await Promise.all(Array.from({ length: 20 }, () => world.epay.notify(trade, params)));
    assert.deepEqual(new Set(replays), new Set(['success']));
    assert.equal((await world.balanceOf(ann.id)).balance, 10);
  });

  test('a forged signature, another merchant, or an amount that differs (correctly signed) is refused and credits nothing', async () => {
    const ben = await world.account('ben');
    const order = await ben.json('POST', '/orders', { provider: 'epay', amountUsd: 5 }, 201);
    await world.epay.open(order.checkoutUrl);
    const { params } = await world.epay.pay(order.id, { deliver: false });
    const send = async (query: Record<string, string>) => {
      const reply = await fetch(`${notifyUrl()}?${new URLSearchParams(query)}`);
      return { status: reply.status, text: await reply.text() };
    };
    assert.equal((await send({ ...params, sign: 'f'.repeat(32) })).status, 400);
    assert.equal((await send({ ...params, money: '0.01' })).status, 400, 'changed amount, old signature');
    const trade = world.epay.trades.get(order.id);
    assert.ok(trade);
    const resigned = world.epay.notifyParams(trade, { money: '1.00' });
    const mismatch = await send(resigned);
    assert.equal(mismatch.status, 400);
    assert.match(mismatch.text, /does not match/);
    assert.equal((await send({ ...params, pid: '9999' })).status, 400);
    assert.equal((await world.balanceOf(ben.id)).balance, 0);
    // The form-encoded POST variant of the same (genuine) notification is accepted.
    const posted = await fetch(notifyUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
    assert.equal(await posted.text(), 'success');
    assert.equal((await world.balanceOf(ben.id)).balance, 5);
  });

  test('an order paid after it expired is reconciled by asking Epay (act=order)', async () => {
    const cat = await world.account('cat');
    const order = await cat.json('POST', '/orders', { provider: 'epay', amountUsd: 3 }, 201);
    await world.epay.open(order.checkoutUrl);
    world.advanceClock(2 * 3_600_000);
    assert.equal((await cat.json('GET', `/orders/${order.id}`)).status, 'expired');
    await world.epay.pay(order.id, { deliver: false });
    assert.equal((await cat.json('GET', `/orders/${order.id}`)).status, 'credited');
    assert.equal((await world.balanceOf(cat.id)).balance, 3);
  });

  test('a refund after partial spending: Epay refunds the yuan, the wallet gives back what is left, the rest is debt', async () => {
    const dan = await world.account('dan');
    const order = await dan.json('POST', '/orders', { provider: 'epay', amountUsd: 10 }, 201);
    await world.epay.open(order.checkoutUrl);
    await world.epay.pay(order.id);
    await world.harness.admin('POST', `/users/${dan.id}/top-ups`, { amount: -7.5, note: 'usage (stands in for spending)' }, 201);
    const refunded = await world.harness.admin('POST', `/orders/${order.id}/refund`, {});
    assert.equal(refunded.status, 'refunded');
    assert.equal(world.epay.trades.get(order.id)?.refundedFen, 7200);
    assert.deepEqual(await world.balanceOf(dan.id), { balance: 0, debtUsd: 7.5 });
    const csv = await fetch(`${world.harness.url}/api/admin/orders/export?user=dan`, {
      headers: { authorization: `Bearer ${'sya-test-admin-token-0123456789'}` },
    });
    const text = await csv.text();
    assert.match(text, /^id,created_at,user_id,provider,status/);
    assert.match(text, /TOTAL,.*1 paid,,10\.000000,0\.000000,,10\.000000,,,net 0\.000000/);
  });

  test('manual orders wait for the operator; mark-paid credits once', async () => {
    const eve = await world.account('eve');
    const order = await eve.json('POST', '/orders', { provider: 'manual', amountUsd: 12 }, 201);
    assert.equal(order.checkoutUrl, null);
    const marks = await Promise.all(Array.from({ length: 5 }, () => world.harness.admin('POST', `/orders/${order.id}/mark-paid`)));
    assert.ok(marks.every((mark) => mark.status === 'credited'));
    assert.equal((await world.balanceOf(eve.id)).balance, 12);
    assert.equal((await world.harness.admin('GET', `/orders?status=credited&user=eve`)).data.length, 1);
  });
});
