import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { attachReferral } from '../../src/payments/referral.ts';
import { signIn, startPaymentWorld, type PaymentWorld } from './payment-harness.ts';

const DAY = 86_400_000;
const sessionOf = (order: { checkoutUrl: string }) => order.checkoutUrl.split('/').pop() ?? '';

describe('referral rebates (SQLite, injected clock)', { timeout: 120_000 }, () => {
  let world: PaymentWorld;
  before(async () => {
    world = await startPaymentWorld();
    await world.harness.admin('POST', '/plans', { name: 'pro', group: 'default', durationDays: 30, quota: { monthly: 50 }, price: 20 }, 201);
  });
  after(() => world.close());

  test('top-ups and plans earn the inviter a held rebate, credited after the holding period; a refund claws it back; sign-up alone earns nothing', async () => {
    let ann = await world.account('inviter-ann');
    const code = (await ann.json('GET', '/referral')).code as string;
    const bob = await world.account('invitee-bob', { referralCode: code });
    let mine = await ann.json('GET', '/referral');
    assert.equal(mine.invites, 1);
    assert.deepEqual([mine.pendingUsd, mine.creditedUsd, mine.ratePercent], [0, 0, 10], 'no sign-up rebate');
    assert.match(mine.link, new RegExp(`ref=${code}$`));

    const topUp = await bob.json('POST', '/orders', { provider: 'stripe', amountUsd: 50 }, 201);
    await world.stripe.pay(sessionOf(topUp));
    const plans = (await world.harness.admin('GET', '/plans')).data as Array<{ id: string; name: string }>;
    const plan = await bob.json('POST', '/orders', { provider: 'stripe', planId: plans.find((entry) => entry.name === 'pro')?.id }, 201);
    assert.deepEqual([plan.amountUsd, plan.creditUsd], [20, 0]);
    await world.stripe.pay(sessionOf(plan));
    assert.equal((await bob.json('GET', '')).subscriptions.length, 1, 'the plan started when its order was credited');

    mine = await ann.json('GET', '/referral');
    assert.deepEqual([mine.pendingUsd, mine.creditedUsd], [7, 0]);
    world.advanceClock(6 * DAY);
    ann = await signIn(world.harness.url, ann.id, 'inviter-ann');
    assert.deepEqual([(await ann.json('GET', '/referral')).pendingUsd, (await world.balanceOf(ann.id)).balance], [7, 0]);
    world.advanceClock(2 * DAY);
    ann = await signIn(world.harness.url, ann.id, 'inviter-ann');
    mine = await ann.json('GET', '/referral');
    assert.deepEqual([mine.pendingUsd, mine.creditedUsd], [0, 7]);
    assert.equal((await world.balanceOf(ann.id)).balance, 7);

    await world.harness.admin('POST', `/orders/${topUp.id}/refund`, {});
    assert.deepEqual(await world.balanceOf(ann.id), { balance: 2, debtUsd: 0 }, 'the 5 rebate of the refunded top-up is clawed back');
    mine = await ann.json('GET', '/referral');
    assert.equal(mine.creditedUsd, 2);

    await world.harness.admin('POST', `/orders/${plan.id}/refund`, {});
    const bobNow = await signIn(world.harness.url, bob.id, 'invitee-bob');
    assert.equal((await bobNow.json('GET', '')).subscriptions[0].status, 'suspended', 'a plan refunded in full stops');
    assert.deepEqual(await world.balanceOf(ann.id), { balance: 0, debtUsd: 0 }, 'its rebate is clawed back too');
  });

  test('a per-inviter override replaces the general rate', async () => {
    const cat = await world.account('inviter-cat');
    await world.harness.admin('PATCH', `/users/${cat.id}/referral`, { ratePercent: 25 });
    const code = (await cat.json('GET', '/referral')).code as string;
    assert.equal((await cat.json('GET', '/referral')).ratePercent, 25);
    const dan = await world.account('invitee-dan', { referralCode: code });
    const order = await dan.json('POST', '/orders', { provider: 'stripe', amountUsd: 8 }, 201);
    await world.stripe.pay(sessionOf(order));
    assert.equal((await cat.json('GET', '/referral')).pendingUsd, 2);
  });

  test('self-referral is refused: the own code, the inviter’s device, the inviter’s payment identity; an unknown code is a 400', async () => {
    await world.harness.admin('POST', '/users', { name: 'nobody', password: 'x'.repeat(12), referralCode: 'no-such-code' }, 400);
    const eve = await world.account('inviter-eve');
    const code = (await eve.json('GET', '/referral')).code as string;
    const store = world.harness.gateway.store;
    await assert.rejects(attachReferral(store, eve.id, code, null), /cannot invite itself/);
    await store.referrals.noteDevice(eve.id, 'device-hash-of-eve');
    await assert.rejects(attachReferral(store, 'usr_other', code, 'device-hash-of-eve'), /self-referral/);
    await attachReferral(store, 'usr_other', code, 'device-hash-of-someone-else');
    await assert.rejects(attachReferral(store, 'usr_other', code, null), /already has an inviter/);
    // Same payer (Stripe's customer e-mail) as the inviter: no rebate.
    const own = await eve.json('POST', '/orders', { provider: 'stripe', amountUsd: 5 }, 201);
    await world.stripe.pay(sessionOf(own), { email: 'eve@example.com' });
    const fay = await world.account('invitee-fay', { referralCode: code });
    const sameCard = await fay.json('POST', '/orders', { provider: 'stripe', amountUsd: 10 }, 201);
    await world.stripe.pay(sessionOf(sameCard), { email: 'EVE@example.com' });
    assert.equal((await eve.json('GET', '/referral')).pendingUsd, 0);
    const other = await fay.json('POST', '/orders', { provider: 'stripe', amountUsd: 10 }, 201);
    await world.stripe.pay(sessionOf(other), { email: 'fay@example.com' });
    assert.equal((await eve.json('GET', '/referral')).pendingUsd, 1);
  });
});
