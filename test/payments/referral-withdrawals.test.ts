import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signIn, startPaymentWorld, type PaymentWorld, type Portal } from './payment-harness.ts';

const DAY = 86_400_000;
const sessionOf = (order: { checkoutUrl: string }) => order.checkoutUrl.split('/').pop() ?? '';

/** An inviter whose invitee paid `paidUsd` by Stripe, with the 10 % rebate credited (8 days later). */
async function inviterWithRebate(world: PaymentWorld, name: string, paidUsd: number): Promise<{ inviter: Portal; orderId: string }> {
  const inviter = await world.account(name);
  const code = (await inviter.json('GET', '/referral')).code as string;
  const invitee = await world.account(`${name}-invitee`, { referralCode: code });
  const order = await invitee.json('POST', '/orders', { provider: 'stripe', amountUsd: paidUsd }, 201);
  await world.stripe.pay(sessionOf(order));
  world.advanceClock(8 * DAY);
  const fresh = await signIn(world.harness.url, inviter.id, name);
  await fresh.json('GET', '/referral');
  return { inviter: fresh, orderId: order.id };
}

describe('referral rebate withdrawals (SQLite)', { timeout: 120_000 }, () => {
  let world: PaymentWorld;
  before(async () => {
    world = await startPaymentWorld();
  });
  after(() => world.close());

  test('off by default; once enabled, a request holds the amount, a rejection returns it, approve and mark paid record it', async () => {
    const { inviter } = await inviterWithRebate(world, 'wd-ann', 200);
    assert.equal((await inviter.json('GET', '/referral')).withdrawableUsd, 20);
    const off = await inviter.call('POST', '/referral/withdrawals', { amountUsd: 10, payoutTo: 'alipay: ann@example.com' });
    assert.equal(off.status, 400, 'withdrawals are off until the operator turns them on');

    await world.harness.admin('PATCH', '/account-settings', { referral: { ratePercent: 10, holdDays: 7, withdrawalsEnabled: true, withdrawMinUsd: 5 } });
    assert.deepEqual((await inviter.json('GET', '/referral')).withdrawals, { enabled: true, minUsd: 5 });
    assert.equal((await inviter.call('POST', '/referral/withdrawals', { amountUsd: 2, payoutTo: 'alipay: ann' })).status, 400, 'below the minimum');
    assert.equal((await inviter.call('POST', '/referral/withdrawals', { amountUsd: 21, payoutTo: 'alipay: ann' })).status, 400, 'above the rebates');

    const first = await inviter.json('POST', '/referral/withdrawals', { amountUsd: 12, payoutTo: 'alipay: ann@example.com' }, 201);
    assert.deepEqual([first.status, first.amountUsd], ['pending', 12]);
    assert.equal((await world.balanceOf(inviter.id)).balance, 8, 'the amount is held: it left the wallet');
    assert.equal((await inviter.json('GET', '/referral')).withdrawableUsd, 8);

    const rejected = await world.harness.admin('POST', `/referral-withdrawals/${first.id}/reject`, { reason: 'wrong account' });
    assert.deepEqual([rejected.status, rejected.reason], ['rejected', 'wrong account']);
    assert.equal((await world.balanceOf(inviter.id)).balance, 20, 'a rejection gives it back');
    await world.harness.admin('POST', `/referral-withdrawals/${first.id}/reject`, {}, 409);
    await world.harness.admin('POST', `/referral-withdrawals/${first.id}/mark-paid`, {}, 409);
    assert.equal((await world.balanceOf(inviter.id)).balance, 20, 'once');

    const second = await inviter.json('POST', '/referral/withdrawals', { amountUsd: 20, payoutTo: 'bank: DE00 1234' }, 201);
    assert.equal((await world.harness.admin('POST', `/referral-withdrawals/${second.id}/approve`, {})).status, 'approved');
    const paid = await world.harness.admin('POST', `/referral-withdrawals/${second.id}/mark-paid`, { payoutRef: 'SEPA-42' });
    assert.deepEqual([paid.status, paid.payoutRef, paid.decidedBy !== null], ['paid', 'SEPA-42', true]);
    assert.equal((await world.balanceOf(inviter.id)).balance, 0);
    const mine = (await inviter.json('GET', '/referral/withdrawals')).data as Array<{ status: string }>;
    assert.deepEqual(
      mine.map((entry) => entry.status),
      ['paid', 'rejected'],
    );
    const listed = (await world.harness.admin('GET', `/referral-withdrawals?status=paid&user=${inviter.id}`)).data as Array<{ id: string }>;
    assert.deepEqual(
      listed.map((entry) => entry.id),
      [second.id],
    );
    const audit = await world.harness.admin('GET', '/audit?limit=50');
    const actions = (audit.data as Array<{ action: string }>).map((entry) => entry.action);
    for (const action of ['referral-withdrawal.reject', 'referral-withdrawal.approve', 'referral-withdrawal.mark-paid'])
      assert.ok(actions.includes(action), action);
    const statement = await inviter.json('GET', `/statements/${(second.createdAt as string).slice(0, 7)}`);
    assert.deepEqual(
      [statement.withdrawalsMicros, statement.adjustmentsMicros],
      [-20_000_000, 0],
      'the statement shows the payout (the rejected request nets out)',
    );
    const csv = await (await inviter.call('GET', `/statements/${(second.createdAt as string).slice(0, 7)}?format=csv`)).text();
    assert.match(csv, /money out,rebate withdrawals,,-20\.000000/);
    const trail = (await world.harness.admin('GET', `/users/${inviter.id}/top-ups`)).data as Array<{ note: string }>;
    assert.ok(trail.some((entry) => /withdrawal .* paid out .*SEPA-42/.test(entry.note)));
  });

  test('20 concurrent requests for the whole rebate hold it once; concurrent rejections return it once', async () => {
    const { inviter } = await inviterWithRebate(world, 'wd-bob', 100);
    const attempts = await Promise.all(
      Array.from({ length: 20 }, () => inviter.call('POST', '/referral/withdrawals', { amountUsd: 10, payoutTo: 'alipay: bob' })),
    );
    const statuses = attempts.map((reply) => reply.status);
    assert.equal(statuses.filter((status) => status === 201).length, 1, `one request wins: ${statuses.join(',')}`);
    assert.ok(statuses.every((status) => status === 201 || status === 400 || status === 409));
    assert.equal((await world.balanceOf(inviter.id)).balance, 0);
    const [held] = (await inviter.json('GET', '/referral/withdrawals')).data as Array<{ id: string }>;
    const rejections = await Promise.allSettled(Array.from({ length: 10 }, () => world.harness.admin('POST', `/referral-withdrawals/${held?.id}/reject`, {})));
    assert.equal(rejections.filter((outcome) => outcome.status === 'fulfilled').length, 1);
    assert.ok(rejections.every((outcome) => outcome.status === 'fulfilled' || /answered 409/.test(String(outcome.reason))));
    assert.equal((await world.balanceOf(inviter.id)).balance, 10, 'the held amount came back once');
  });

  test('a refund that claws back the rebate lowers what may be withdrawn', async () => {
    const { inviter, orderId } = await inviterWithRebate(world, 'wd-cat', 50);
    assert.equal((await inviter.json('GET', '/referral')).withdrawableUsd, 5);
    await world.harness.admin('POST', `/orders/${orderId}/refund`, { amountUsd: 20 });
    assert.equal((await inviter.json('GET', '/referral')).withdrawableUsd, 3);
    // The store's guard alone (no route checks before it): of 20 concurrent requests for the
    // whole 3 USD, one holds it.
    const store = world.harness.gateway.store;
    const held = await Promise.all(Array.from({ length: 20 }, () => store.withdrawals.request(inviter.id, 3_000_000, 'bank')));
    assert.equal(held.filter(Boolean).length, 1);
    assert.equal((await store.withdrawals.balanceOf(inviter.id)).withdrawnMicros, 3_000_000);
  });
});
