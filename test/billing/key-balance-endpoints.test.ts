import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { callSurface } from '../access/surface-calls.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { postgresDatabase } from '../helpers/postgres-database.ts';

/** 10 input tokens at $100/M + 5 output tokens at $200/M = $0.002 a request. */
const REQUEST_USD = 0.002;

function today(offsetDays = 0): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

// Issue 27, cost shown to payers: the balance endpoints key holders' tools read, on both databases.
for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`key balance endpoints on ${dialect}`, { timeout: 120_000 }, () => {
    let harness: Harness;
    let database: { url: string; drop: () => Promise<void> } | undefined;
    let spender: { id: string; key: string };
    let bystander: { id: string; key: string };

    // As the tools send them: Bearer (OpenRouter SDKs, NextChat, cc-switch) or x-api-key.
    const get = async (path: string, key: string, header: 'bearer' | 'x-api-key' = 'bearer') => {
      const headers: Record<string, string> = header === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
      const response = await fetch(`${harness.url}${path}`, { headers });
      return { status: response.status, body: (await response.json()) as any };
    };

    before(async () => {
      database = dialect === 'postgres' ? await postgresDatabase() : undefined;
      harness = await startHarness(database ? { databaseUrl: database.url, gatewaySecret: 'key-balance-test-gateway-secret-0123456789' } : {});
      await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
      await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 100, output: 200 });
      harness.simulator.setDefault({ text: 'ok', usage: { input: 10, output: 5 } });
      spender = await harness.addKey({ name: 'spender', balance: 1 });
      bystander = await harness.addKey({ name: 'bystander', balance: 5 });
      for (let i = 0; i < 2; i += 1) assert.equal((await callSurface(harness.url, 'openai-chat', { key: spender.key })).status, 200);
    });
    after(async () => {
      await harness?.close();
      await database?.drop();
    });

    test('OpenRouter GET /api/v1/key: label, limit, usage by period and what is left, for the calling key only', async () => {
      const mine = await get('/api/v1/key', spender.key);
      assert.equal(mine.status, 200);
      assert.equal(mine.body.data.label, 'spender');
      assert.equal(mine.body.data.limit, 1);
      assert.equal(mine.body.data.usage, 2 * REQUEST_USD);
      assert.equal(mine.body.data.usage_daily, 2 * REQUEST_USD);
      assert.equal(mine.body.data.usage_weekly, 2 * REQUEST_USD);
      assert.equal(mine.body.data.usage_monthly, 2 * REQUEST_USD);
      assert.equal(mine.body.data.limit_remaining, 0.996);
      assert.equal(mine.body.data.is_free_tier, false);

      // Another key sees its own figures, never the spender's.
      const theirs = await get('/api/v1/key', bystander.key, 'x-api-key');
      assert.equal(theirs.body.data.label, 'bystander');
      assert.equal(theirs.body.data.usage, 0);
      assert.equal(theirs.body.data.usage_daily, 0);
      assert.equal(theirs.body.data.limit_remaining, 5);
      // The older path answers the same.
      assert.deepEqual((await get('/api/v1/auth/key', spender.key)).body, mine.body);
    });

    test('OpenRouter GET /api/v1/credits: credited and used', async () => {
      assert.deepEqual((await get('/api/v1/credits', spender.key)).body, { data: { total_credits: 1, total_usage: 2 * REQUEST_USD } });
      assert.deepEqual((await get('/api/v1/credits', bystander.key)).body, { data: { total_credits: 5, total_usage: 0 } });
    });

    test('OpenAI-legacy /v1/dashboard/billing/subscription and /usage as NextChat asks them', async () => {
      const subscription = await get('/v1/dashboard/billing/subscription', spender.key);
      assert.equal(subscription.status, 200);
      assert.equal(subscription.body.object, 'billing_subscription');
      assert.equal(subscription.body.hard_limit_usd, 1);
      assert.equal(subscription.body.system_hard_limit_usd, 1);
      // NextChat: start of the month to tomorrow; total_usage is in cents.
      const monthStart = `${today().slice(0, 8)}01`;
      const usage = await get(`/v1/dashboard/billing/usage?start_date=${monthStart}&end_date=${today(1)}`, spender.key);
      assert.equal(usage.status, 200);
      assert.equal(usage.body.object, 'list');
      assert.equal(usage.body.total_usage, 2 * REQUEST_USD * 100);
      assert.equal(usage.body.daily_costs.length, 1);
      assert.deepEqual(usage.body.daily_costs[0].line_items, [{ name: 'gpt-4o-mini', cost: 2 * REQUEST_USD * 100 }]);
      // A day without the requests is empty; another key's usage is its own (none).
      assert.equal((await get(`/v1/dashboard/billing/usage?start_date=${today(-3)}&end_date=${today(-2)}`, spender.key)).body.total_usage, 0);
      assert.equal((await get(`/v1/dashboard/billing/usage?start_date=${monthStart}&end_date=${today(1)}`, bystander.key)).body.total_usage, 0);
      // new-api serves them without /v1 too.
      assert.equal((await get('/dashboard/billing/subscription', bystander.key)).body.hard_limit_usd, 5);
    });

    test('the usage range is checked: a bad date is a 400 in the OpenAI shape', async () => {
      const bad = await get('/v1/dashboard/billing/usage?start_date=yesterday', spender.key);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.param, 'start_date');
      const backwards = await get(`/v1/dashboard/billing/usage?start_date=${today()}&end_date=${today(-1)}`, spender.key);
      assert.equal(backwards.status, 400);
    });

    test("sub2api GET /v1/usage: what is left, in USD, and the key's spend by period", async () => {
      const { status, body } = await get('/v1/usage', spender.key);
      assert.equal(status, 200);
      assert.equal(body.isValid, true);
      assert.equal(body.mode, 'key_balance');
      assert.equal(body.unit, 'USD');
      assert.equal(body.remaining, 0.996);
      assert.deepEqual(body.usage, { today: 2 * REQUEST_USD, week: 2 * REQUEST_USD, month: 2 * REQUEST_USD, total: 2 * REQUEST_USD });
      assert.equal((await get('/v1/usage', bystander.key)).body.remaining, 5);
    });

    test('a subscription pays: its windows, used and left, and the percentage used', async () => {
      await harness.admin('POST', '/groups', { name: 'plan-group', billing: 'subscription' });
      await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'], groups: ['plan-group'] });
      const plan = await harness.admin('POST', '/plans', { name: 'pro', group: 'plan-group', durationDays: 30, quota: { daily: 1 } });
      const user = await harness.admin('POST', '/users', { name: 'sub-user' });
      await harness.admin('POST', '/subscriptions', { user: user.id, plan: plan.id });
      const key = await harness.addKey({ name: 'sub-key', group: 'plan-group', user: user.id });
      const served = await callSurface(harness.url, 'openai-chat', { key: key.key });
      assert.equal(served.status, 200, JSON.stringify(served));
      const { body } = await get('/v1/usage', key.key);
      assert.equal(body.mode, 'subscription');
      assert.equal(body.planName, 'pro');
      assert.equal(body.remaining, 0.998);
      assert.equal(body.subscription.daily_usage_usd, REQUEST_USD);
      assert.equal(body.subscription.daily_limit_usd, 1);
      assert.equal(body.subscription.daily_used_percent, 0.2);
      const openRouter = (await get('/api/v1/key', key.key)).body.data;
      assert.equal(openRouter.limit, 1);
      assert.equal(openRouter.limit_reset, 'daily');
      assert.equal(openRouter.limit_remaining, 0.998);
    });

    test('refused like a generation: an unknown key is 401, an expired one 403, in the OpenAI shape', async () => {
      for (const path of ['/api/v1/key', '/api/v1/credits', '/v1/dashboard/billing/subscription', '/v1/dashboard/billing/usage', '/v1/usage']) {
        const unknown = await get(path, 'sk-not-a-key');
        assert.equal(unknown.status, 401, path);
        assert.equal(unknown.body.error.code, 'invalid_api_key', path);
      }
      const expired = await harness.addKey({ expiresAt: '2021-01-01T00:00:00Z' });
      const refused = await get('/api/v1/key', expired.key);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'key_expired');
    });
  });
}
