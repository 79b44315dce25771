import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRuntime } from '../../src/core/create-runtime.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * The account portal's API (/api/account): cookie sessions, CSRF, sign-out, expiry, the
 * sign-in throttle, and an account's own keys, redemption and usage.
 */
describe('the account portal API', { timeout: 120_000 }, () => {
  let harness: Harness;
  let clockOffset = 0;
  const base = createRuntime();

  before(async () => {
    harness = await startHarness({ runtime: { ...base, now: () => Date.now() + clockOffset } });
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
    await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 1, output: 2 });
    await harness.admin('POST', '/users', { name: 'dana', email: 'Dana@Example.com', password: PASSWORD, balance: 3 });
    await harness.admin('POST', '/users', { name: 'erik', email: 'erik@example.com', password: PASSWORD });
    await harness.admin('POST', '/users', { name: 'nopass' });
  });
  after(async () => harness?.close());

  const signIn = async (login: string, password: string, headers: Record<string, string> = {}) =>
    fetch(`${harness.url}/api/account/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ login, password }),
    });
  const session = async (login = 'dana') => {
    const response = await signIn(login, PASSWORD);
    assert.equal(response.status, 200, await response.clone().text());
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    const body = (await response.json()) as { csrfToken: string };
    return { cookie, csrf: body.csrfToken };
  };
  const call = (who: { cookie: string; csrf?: string }, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${harness.url}/api/account${path}`, {
      method,
      headers: {
        cookie: who.cookie,
        ...(who.csrf ? { 'x-csrf-token': who.csrf } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  test('signing in with email (any case) or name sets an HttpOnly, SameSite=Strict cookie scoped to /api/account', async () => {
    for (const login of ['dana@example.com', 'dana']) {
      const response = await signIn(login, PASSWORD);
      assert.equal(response.status, 200);
      const cookie = response.headers.get('set-cookie') ?? '';
      assert.match(cookie, /^switchyard_account=[A-Za-z0-9_-]{43}; Path=\/api\/account; Max-Age=43200; HttpOnly; SameSite=Strict$/);
      const body = (await response.json()) as Record<string, any>;
      assert.equal(body.user.name, 'dana');
      assert.equal(body.user.balance, 3);
      assert.equal(typeof body.csrfToken, 'string');
      assert.ok(!JSON.stringify(body).includes('scrypt'), 'no password hash in the answer');
    }
    const https = await signIn('dana', PASSWORD, { 'x-forwarded-proto': 'https' });
    assert.match(https.headers.get('set-cookie') ?? '', /; Secure$/);
  });

  test('a wrong password, an account without a password and an unknown name all answer the same 401', async () => {
    for (const [login, password] of [
      ['erik', 'wrong password'],
      ['nopass', 'anything at all'],
      ['nobody', PASSWORD],
    ] as const) {
      const response = await signIn(login, password, { 'x-forwarded-for': '198.51.100.1' });
      assert.equal(response.status, 401);
      const body = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'sign_in_failed');
      assert.match(body.error.message, /^That email or name and password do not match an enabled account\./);
    }
  });

  test('without a session every account call is 401 session_required; a forged cookie too', async () => {
    assert.equal((await fetch(`${harness.url}/api/account`)).status, 401);
    const forged = await call({ cookie: `switchyard_account=${'A'.repeat(43)}` }, 'GET', '');
    assert.equal(forged.status, 401);
    assert.equal(((await forged.json()) as any).error.code, 'session_required');
  });

  test('state-changing calls need the CSRF token and, when sent, this origin', async () => {
    const who = await session();
    const noToken = await call({ cookie: who.cookie }, 'POST', '/keys', { name: 'k', group: 'default' });
    assert.equal(noToken.status, 403);
    assert.equal(((await noToken.json()) as any).error.code, 'csrf_failed');
    const wrongToken = await call({ cookie: who.cookie, csrf: 'x'.repeat(43) }, 'POST', '/keys', { name: 'k', group: 'default' });
    assert.equal(wrongToken.status, 403);
    const crossSite = await call(who, 'POST', '/keys', { name: 'k', group: 'default' }, { origin: 'https://evil.example' });
    assert.equal(crossSite.status, 403);
    const signInCrossSite = await signIn('dana', PASSWORD, { origin: 'https://evil.example' });
    assert.equal(signInCrossSite.status, 403);
    const formPost = await fetch(`${harness.url}/api/account/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'login=dana',
    });
    assert.equal(formPost.status, 400, 'sign-in takes JSON only');
    const ok = await call(who, 'POST', '/keys', {
      name: 'laptop',
      group: 'default',
      limits: { dailySpend: 2 },
      allowedIps: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
    });
    assert.equal(ok.status, 201, await ok.clone().text());
  });

  test('an account creates a key in an allowed group, uses it, caps it, and cannot touch another account’s key', async () => {
    const dana = await session();
    const refused = await call(dana, 'POST', '/keys', { name: 'x', group: 'premium' });
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as any).error.message, /you may create keys in "default"/);

    const created = (await (await call(dana, 'POST', '/keys', { name: 'desktop', group: 'default' })).json()) as any;
    assert.match(created.key, /^sk-/);
    assert.equal(created.group, 'default');
    const models = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${created.key}` } });
    assert.equal(models.status, 200);

    const listed = (await (await call(dana, 'GET', '/keys')).json()) as any;
    assert.ok(
      listed.data.every((key: any) => key.key === undefined),
      'the secret is never listed',
    );
    assert.ok(listed.data.some((key: any) => key.name === 'desktop'));

    const patched = (await (await call(dana, 'PATCH', `/keys/${created.id}`, { limits: { weeklySpend: 5 }, allowedIps: ['203.0.113.0/24'] })).json()) as any;
    assert.deepEqual(patched.limits, { weeklySpend: 5 });
    assert.deepEqual(patched.allowedIps, ['203.0.113.0/24']);
    const fenced = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${created.key}` } });
    assert.equal(fenced.status, 403, 'the IP fence applies at once');
    const badIp = await call(dana, 'PATCH', `/keys/${created.id}`, { allowedIps: ['not-an-ip'] });
    assert.equal(badIp.status, 400);
    // Spend caps follow the one USD rule of schemas/field-rules.ts, as the admin API does: up to 1e9 USD.
    const bigCap = await call(dana, 'PATCH', `/keys/${created.id}`, { limits: { monthlySpend: 5_000_000 } });
    assert.equal(bigCap.status, 200, 'a cap the admin API accepts is accepted here too');
    const tooBig = await call(dana, 'PATCH', `/keys/${created.id}`, { limits: { monthlySpend: 2e9 } });
    assert.equal(tooBig.status, 400);
    assert.match(((await tooBig.json()) as any).error.message, /must be at most 1000000000 \(USD\)/);

    const erik = await session('erik');
    assert.equal((await call(erik, 'DELETE', `/keys/${created.id}`)).status, 404, 'another account’s key is not found');
    assert.equal((await call(erik, 'PATCH', `/keys/${created.id}`, { allowedIps: null })).status, 404);
    assert.equal((await call(dana, 'DELETE', `/keys/${created.id}`)).status, 204);
    const revoked = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${created.key}` } });
    assert.equal(revoked.status, 401);
  });

  test("the model check is the same six checks for the portal, the key and the operator; the portal names the account's own group that serves the model (issue 24)", async () => {
    await harness.admin('POST', '/groups', { name: 'vip-plan', billing: 'subscription' });
    await harness.addChannel({ provider: 'openai', models: ['gpt-premium'], groups: ['vip-plan'] });
    await harness.admin('POST', '/plans', { name: 'vip-monthly', group: 'vip-plan', durationDays: 30, quota: { daily: 1 }, price: 10 });
    const erikId = ((await harness.admin('GET', '/users')).data as Array<{ id: string; name: string }>).find((user) => user.name === 'erik')!.id;
    await harness.admin('POST', '/subscriptions', { user: erikId, plan: 'vip-monthly' });
    const erik = await session('erik');
    const created = (await (await call(erik, 'POST', '/keys', { name: 'default-key', group: 'default' })).json()) as any;

    const portal = (await (await call(erik, 'GET', `/diagnose?key=${created.id}&model=gpt-premium`)).json()) as any;
    const [, groupCheck, spelling, client] = portal.checks;
    assert.equal(groupCheck.verdict, 'fail');
    assert.match(groupCheck.detail, /your group "vip-plan" serves it: create a key in group "vip-plan"/);
    assert.equal(spelling.verdict, 'pass', 'not taken for a misspelling');
    assert.match(client.detail, /switchyard-diagnose --client <kind>/);
    assert.doesNotMatch(client.detail, /&client=/);

    // The same checks through the key itself and through the operator (the console's check).
    const byKey = (await (
      await fetch(`${harness.url}/api/diagnose?model=gpt-4o-mini&client=openai-sdk`, { headers: { authorization: `Bearer ${created.key}` } })
    ).json()) as any;
    const byOperator = await harness.admin('GET', `/keys/${created.id}/diagnose?model=gpt-4o-mini&client=openai-sdk`);
    const shape = (diagnosis: any) => diagnosis.checks.map((check: any) => [check.step, check.name, check.verdict]);
    assert.equal(byKey.checks.length, 6);
    assert.deepEqual(shape(byOperator), shape(byKey));
    assert.deepEqual(
      byOperator.checks.map((check: any) => check.detail),
      byKey.checks.map((check: any) => check.detail),
    );

    // The subscription line a consumer reads: dates a person reads, no ISO times.
    const vipKey = (await (await call(erik, 'POST', '/keys', { name: 'vip-key', group: 'vip-plan' })).json()) as any;
    const vip = (await (await call(erik, 'GET', `/diagnose?key=${vipKey.id}&model=gpt-premium`)).json()) as any;
    const subscriptionLine = vip.checks.find((check: any) => check.name === 'subscription').detail;
    assert.match(
      subscriptionLine,
      /plan "vip-monthly" until \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC; daily \$1\.00 left \(resets \d{1,2} [A-Z][a-z]{2} \d{4}, 00:00 UTC\)\./,
    );
    assert.doesNotMatch(subscriptionLine, /\d{4}-\d\d-\d\dT/);
  });

  test('redeeming a balance code fills the wallet once; the second try names why it fails', async () => {
    const { codes } = await harness.admin('POST', '/redemption-codes', { kind: 'balance', amount: 4 });
    const erik = await session('erik');
    const first = await call(erik, 'POST', '/redeem', { code: codes[0] });
    assert.equal(first.status, 200, await first.clone().text());
    const body = (await first.json()) as any;
    assert.equal(body.kind, 'balance');
    assert.equal(body.amount, 4);
    assert.equal(body.balance, 4);
    const again = await call(erik, 'POST', '/redeem', { code: codes[0] });
    assert.equal(again.status, 400);
    const error = ((await again.json()) as any).error;
    assert.equal(error.code, 'invalid_redemption_code');
    // Read by the account holder: a date a person reads, no request id (the x-request-id header has it).
    assert.match(error.message, /^This redemption code was already used, on \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC; each code works once\.$/);
    assert.ok(again.headers.get('x-request-id'));
  });

  test('usage shows the account’s calls without channel details', async () => {
    const dana = await session();
    const key = (await (await call(dana, 'POST', '/keys', { name: 'usage-key', group: 'default' })).json()) as any;
    harness.simulator.enqueue({ text: 'Hi.', usage: { input: 1000, output: 500 } });
    const chat = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }),
    });
    assert.equal(chat.status, 200, await chat.clone().text());
    const usage = (await (await call(dana, 'GET', '/usage?days=7')).json()) as any;
    assert.equal(usage.byDay.length, 7);
    const row = usage.recent.find((entry: any) => entry.keyName === 'usage-key');
    assert.ok(row, 'the call is listed');
    assert.equal(row.model, 'gpt-4o-mini');
    assert.equal(row.inputTokens, 1000);
    for (const field of ['channelId', 'channelName', 'attempts', 'upstreamModel', 'clientIp']) assert.ok(!(field in row), `no ${field}`);
    assert.ok(usage.byModel.some((entry: any) => entry.model === 'gpt-4o-mini' && entry.requests >= 1));
    const erik = await session('erik');
    const other = (await (await call(erik, 'GET', '/usage?days=7')).json()) as any;
    assert.ok(!other.recent.some((entry: any) => entry.keyName === 'usage-key'), 'never another account’s rows');
  });

  test('signing out ends the session at once; a session also ends after 12 hours', async () => {
    const who = await session();
    assert.equal((await call(who, 'GET', '')).status, 200);
    const out = await call(who, 'DELETE', '/session');
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
    assert.equal((await call(who, 'GET', '')).status, 401);

    const later = await session();
    clockOffset = 12 * 3_600_000 - 60_000;
    assert.equal((await call(later, 'GET', '')).status, 200);
    clockOffset = 12 * 3_600_000 + 1000;
    assert.equal((await call(later, 'GET', '')).status, 401);
    clockOffset = 0;
  });

  test('a disabled account is signed out and cannot sign in', async () => {
    await harness.admin('POST', '/users', { name: 'fay', password: PASSWORD });
    const fay = await session('fay');
    await harness.admin('PATCH', '/users/fay', { enabled: false });
    assert.equal((await call(fay, 'GET', '')).status, 401);
    assert.equal((await signIn('fay', PASSWORD)).status, 401);
  });

  test('failed sign-ins are throttled per account (5 per 15 minutes) and per address (20), with retry-after', async () => {
    await harness.admin('POST', '/users', { name: 'gus', password: PASSWORD });
    // Start at the beginning of a 15-minute window, so a slow run cannot cross into the next one.
    const window = 15 * 60_000;
    clockOffset = Math.ceil(Date.now() / window) * window + 1000 - Date.now();
    for (let attempt = 0; attempt < 5; attempt += 1) assert.equal((await signIn('gus', 'wrong password')).status, 401);
    const locked = await signIn('gus', PASSWORD);
    assert.equal(locked.status, 429, 'even the right password waits once the account is throttled');
    const retryAfter = Number(locked.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 900, `retry-after ${retryAfter}`);
    assert.equal(((await locked.json()) as any).error.code, 'rate_limited');
    assert.equal((await signIn('erik', PASSWORD)).status, 200, 'other accounts are not locked out by it');

    // Per address: 20 failures in this window from this address (5 so far, for gus), spread over names.
    for (let attempt = 0; attempt < 15; attempt += 1) await signIn(`guess-${attempt}`, 'wrong password');
    const fromHere = await signIn('erik', PASSWORD);
    assert.equal(fromHere.status, 429, 'the address is throttled across accounts');
    assert.ok(Number(fromHere.headers.get('retry-after')) >= 1);
    clockOffset = 0;
  });
});
