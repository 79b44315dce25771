import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPaymentWorld, type PaymentWorld } from './payment-harness.ts';

describe('what the portal offers at checkout', { timeout: 60_000 }, () => {
  let world: PaymentWorld;
  before(async () => {
    world = await startPaymentWorld();
  });
  after(() => world.close());

  test('the enabled providers (never their settings), the top-up rules, and only the plans with a price', async () => {
    await world.harness.admin('POST', '/plans', { name: 'sold', group: 'default', durationDays: 30, quota: { monthly: 50 }, price: 12 }, 201);
    await world.harness.admin('POST', '/plans', { name: 'internal', group: 'default', durationDays: 30, quota: { monthly: 50 } }, 201);
    await world.harness.admin('PATCH', '/payment-providers/manual', { enabled: true, instructions: 'IBAN DE00 1234, reference your order id' });
    await world.harness.admin('PATCH', '/payment-providers/epay', { enabled: false });
    const account = await world.account('shopper');
    const reply = await account.call('GET', '/checkout-options');
    const text = await reply.text();
    const options = JSON.parse(text);
    assert.deepEqual(options.providers, [{ name: 'stripe' }, { name: 'manual', instructions: 'IBAN DE00 1234, reference your order id' }]);
    assert.deepEqual(options.topUp.presetsUsd, [10, 50, 100]);
    assert.deepEqual(
      options.plans.map((plan: { name: string; priceUsd: number }) => [plan.name, plan.priceUsd]),
      [['sold', 12]],
    );
    for (const secret of [world.stripe.secretKey, world.stripe.webhookSecret, world.epay.key, world.stripe.url]) assert.ok(!text.includes(secret));
  });
});
