import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/** The admin API contract of issue 15, field by field. */
describe('admin API: users, plans, subscriptions, redemption codes', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  test('users: created with 201, never a password or hash in any answer, found by id or name', async () => {
    const created = await harness.admin('POST', '/users', { name: 'ada', email: 'ada@example.com', password: 'correct horse battery', balance: 12.5 }, 201);
    assert.match(created.id, /^usr_/);
    assert.equal(created.balance, 12.5);
    assert.equal(created.hasPassword, true);
    for (const answer of [
      created,
      await harness.admin('GET', '/users/ada'),
      await harness.admin('GET', `/users/${created.id}`),
      await harness.admin('GET', '/users'),
    ]) {
      const text = JSON.stringify(answer);
      assert.ok(!/password"|passwordHash|scrypt|correct horse/.test(text.replace('hasPassword', '')), text);
    }
    const stored = await harness.gateway.store.users.find('ada');
    assert.match(stored?.passwordHash ?? '', /^scrypt\$32768\$8\$1\$/);
    await harness.admin('POST', '/users', { name: 'ada' }, 409);
    await harness.admin('POST', '/users', { name: 'eve', email: 'ada@example.com' }, 409);
    await harness.admin('POST', '/users', { name: 'bad', password: 'short' }, 400);
  });

  test('users: balanceDelta is a signed top-up applied atomically; balance and balanceDelta together are refused', async () => {
    const user = await harness.admin('POST', '/users', { name: 'topup', balance: 1 }, 201);
    await Promise.all(Array.from({ length: 20 }, () => harness.admin('PATCH', `/users/${user.id}`, { balanceDelta: 0.5 })));
    assert.equal((await harness.admin('GET', `/users/${user.id}`)).balance, 11);
    assert.equal((await harness.admin('PATCH', `/users/topup`, { balanceDelta: -2 })).balance, 9);
    await harness.admin('PATCH', `/users/topup`, { balance: 1, balanceDelta: 1 }, 400);
    assert.equal((await harness.admin('PATCH', `/users/topup`, { balance: 3 })).balance, 3);
  });

  test('keys take a user by id or name; a user with keys cannot be deleted', async () => {
    const user = await harness.admin('POST', '/users', { name: 'owner' }, 201);
    const key = await harness.admin('POST', '/keys', { name: 'owned', group: 'default', user: 'owner' }, 201);
    assert.equal(key.user, user.id);
    await harness.admin('POST', '/keys', { name: 'orphan', group: 'default', user: 'nobody' }, 400);
    await harness.admin('DELETE', `/users/${user.id}`, undefined, 409);
    assert.equal((await harness.admin('PATCH', `/keys/${key.id}`, { user: null })).user, null);
    await harness.admin('DELETE', '/users/owner', undefined, 204);
    await harness.admin('GET', '/users/owner', undefined, 404);
  });

  test('plans and subscriptions: the contract shapes, defaults, filters, suspend, 409 on deleting a plan in use', async () => {
    await harness.admin('POST', '/groups', { name: 'gold' }, 201);
    const group = await harness.admin('PATCH', '/groups/gold', { billing: 'subscription' });
    assert.equal(group.billing, 'subscription');
    await harness.admin('PATCH', '/groups/gold', { billing: 'wallet' }, 400);
    const plan = await harness.admin(
      'POST',
      '/plans',
      { name: 'gold-m', group: 'gold', durationDays: 30, quota: { daily: 1, total: 10 }, price: 9.99, description: 'Gold' },
      201,
    );
    assert.deepEqual(
      { ...plan, id: undefined, createdAt: undefined, updatedAt: undefined },
      {
        id: undefined,
        name: 'gold-m',
        group: 'gold',
        durationDays: 30,
        quota: { daily: 1, total: 10 },
        price: 9.99,
        description: 'Gold',
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    await harness.admin('POST', '/plans', { name: 'x', group: 'ghost', durationDays: 1, quota: {} }, 409);
    const user = await harness.admin('POST', '/users', { name: 'subscriber' }, 201);
    const before = Date.now();
    const subscription = await harness.admin('POST', '/subscriptions', { user: 'subscriber', plan: 'gold-m' }, 201);
    assert.equal(subscription.user, user.id);
    assert.equal(subscription.plan, plan.id);
    assert.equal(subscription.group, 'gold');
    assert.equal(subscription.status, 'active');
    assert.ok(Date.parse(subscription.startsAt) >= before);
    assert.equal(Date.parse(subscription.expiresAt) - Date.parse(subscription.startsAt), 30 * 86_400_000);
    assert.deepEqual(subscription.usage, { daily: 0, weekly: 0, monthly: 0, total: 0 });
    assert.deepEqual(Object.keys(subscription.resetsAt), ['daily', 'weekly', 'monthly']);
    const suspended = await harness.admin('PATCH', `/subscriptions/${subscription.id}`, { status: 'suspended' });
    assert.equal(suspended.status, 'suspended');
    assert.equal((await harness.admin('GET', `/subscriptions?user=subscriber&status=suspended`)).data.length, 1);
    assert.equal((await harness.admin('GET', `/subscriptions?user=subscriber&status=active`)).data.length, 0);
    await harness.admin('DELETE', `/plans/${plan.id}`, undefined, 409);
    await harness.admin('DELETE', '/groups/gold', undefined, 409);
    await harness.admin('PATCH', `/subscriptions/${subscription.id}`, { status: 'active', expiresAt: new Date(Date.now() + 1000).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal((await harness.admin('GET', `/subscriptions/${subscription.id}`)).status, 'expired');
    await harness.admin('DELETE', '/plans/gold-m', undefined, 204);
  });

  test('redemption codes: shown once at creation, listed by state without the code', async () => {
    await harness.admin('POST', '/groups', { name: 'silver', billing: 'subscription_then_balance' }, 201);
    await harness.admin('POST', '/plans', { name: 'silver-w', group: 'silver', durationDays: 7, quota: { weekly: 5 } }, 201);
    const balance = await harness.admin('POST', '/redemption-codes', { kind: 'balance', amount: 2, count: 3 }, 201);
    assert.equal(balance.codes.length, 3);
    assert.equal(new Set(balance.codes).size, 3);
    const subscription = await harness.admin('POST', '/redemption-codes', { kind: 'subscription', plan: 'silver-w', expiresAt: '2099-01-01T00:00:00Z' }, 201);
    await harness.admin('POST', '/redemption-codes', { kind: 'subscription', plan: 'nope' }, 400);
    await harness.admin('POST', '/redemption-codes', { kind: 'gift', amount: 1 }, 400);
    const listed = (await harness.admin('GET', '/redemption-codes')).data;
    const text = JSON.stringify(listed);
    for (const code of [...balance.codes, ...subscription.codes]) assert.ok(!text.includes(code));
    assert.equal(listed.filter((row: any) => row.kind === 'balance' && row.amount === 2 && row.state === 'unused').length, 3);
    assert.equal(listed.filter((row: any) => row.kind === 'subscription' && row.planName === 'silver-w').length, 1);
  });
});
