import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { postgresDatabase } from '../helpers/postgres-database.ts';

const PASSWORD = 'correct horse battery staple';

/** A portal client of one harness: sign in, then call /api/account with the session. */
function portal(harness: () => Harness) {
  const signIn = (login: string, password = PASSWORD) =>
    fetch(`${harness().url}/api/account/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password }),
    });
  const session = async (login: string) => {
    const response = await signIn(login);
    assert.equal(response.status, 200, await response.clone().text());
    return { cookie: (response.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: ((await response.json()) as { csrfToken: string }).csrfToken };
  };
  const call = (who: { cookie: string; csrf: string }, method: string, path: string, body?: unknown) =>
    fetch(`${harness().url}/api/account${path}`, {
      method,
      headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { signIn, session, call };
}

// Issue 23 item 13, on both databases: key names are unique per account.
for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`portal key names on ${dialect}`, { timeout: 120_000 }, () => {
    let harness: Harness;
    let database: { url: string; drop: () => Promise<void> } | undefined;
    const { session, call } = portal(() => harness);

    before(async () => {
      database = dialect === 'postgres' ? await postgresDatabase() : undefined;
      harness = await startHarness(database ? { databaseUrl: database.url, gatewaySecret: 'round-three-test-gateway-secret-0123456789' } : {});
      await harness.admin('POST', '/users', { name: 'ann', password: PASSWORD });
      await harness.admin('POST', '/users', { name: 'ben', password: PASSWORD });
    });
    after(async () => {
      await harness?.close();
      await database?.drop();
    });

    test('a name only another account uses is free (201); a name the account already uses is 409, on create and rename', async () => {
      const [ann, ben] = [await session('ann'), await session('ben')];
      assert.equal((await call(ann, 'POST', '/keys', { name: 'laptop', group: 'default' })).status, 201);
      const bens = await call(ben, 'POST', '/keys', { name: 'laptop', group: 'default' });
      assert.equal(bens.status, 201, `another account's key name tells nothing and blocks nothing: ${await bens.clone().text()}`);

      const again = await call(ann, 'POST', '/keys', { name: 'laptop', group: 'default' });
      assert.equal(again.status, 409);
      const error = ((await again.json()) as any).error;
      assert.equal(error.code, 'conflict');
      assert.match(error.message, /You already have a key with that name/);

      const desk = (await (await call(ben, 'POST', '/keys', { name: 'desk', group: 'default' })).json()) as { id: string };
      assert.equal((await call(ben, 'PATCH', `/keys/${desk.id}`, { name: 'laptop' })).status, 409, 'renaming onto the account’s own name');
      const tablet = (await (await call(ann, 'POST', '/keys', { name: 'tablet', group: 'default' })).json()) as { id: string };
      const renamed = await call(ann, 'PATCH', `/keys/${tablet.id}`, { name: 'desk' });
      assert.equal(renamed.status, 200, 'renaming onto a name only another account uses');
      assert.equal(((await renamed.json()) as any).name, 'desk');
    });

    test('the admin API names a shared key name by id, and still finds a unique one by name', async () => {
      const ambiguous = await fetch(`${harness.url}/api/admin/keys/laptop`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      assert.equal(ambiguous.status, 409);
      assert.match(((await ambiguous.json()) as any).error.message, /2 accounts have a key named "laptop"; name the key by its id/);
      assert.equal((await harness.admin('GET', '/keys/desk', undefined, 409)).error.code, 'conflict');
      await harness.admin('POST', '/keys', { name: 'ops-key', group: 'default' });
      assert.equal((await harness.admin('GET', '/keys/ops-key')).name, 'ops-key');
    });
  });
}

describe('portal sessions and the self-service routes', { timeout: 120_000 }, () => {
  let harness: Harness;
  const { signIn, session, call } = portal(() => harness);

  before(async () => {
    harness = await startHarness();
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
    await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 1, output: 2 });
    for (const name of ['cora', 'dov', 'eli']) await harness.admin('POST', '/users', { name, email: `${name}@example.com`, password: PASSWORD, balance: 1 });
  });
  after(async () => harness?.close());

  // Issue 23 item 14.
  test('an operator’s password change ends the account’s portal sessions at once; other accounts keep theirs', async () => {
    const [cora, dov] = [await session('cora'), await session('dov')];
    const second = await session('cora@example.com');
    assert.equal((await call(cora, 'GET', '')).status, 200);
    await harness.admin('PATCH', '/users/cora', { password: 'a brand new password 42' });
    for (const who of [cora, second]) {
      const refused = await call(who, 'GET', '');
      assert.equal(refused.status, 401, 'the session signed in with the old password has ended');
      assert.equal(((await refused.json()) as any).error.code, 'session_required');
    }
    assert.equal((await call(dov, 'GET', '')).status, 200, 'another account is untouched');
    assert.equal((await signIn('cora')).status, 401, 'the old password no longer signs in');
    assert.equal((await signIn('cora', 'a brand new password 42')).status, 200);
  });

  // Issue 23 item 15.
  const selfService = (key: string, method: 'GET' | 'POST', path: string, body?: unknown) =>
    fetch(`${harness.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const expectRefused = async (key: string, code: string) => {
    const { codes } = await harness.admin('POST', '/redemption-codes', { kind: 'balance', amount: 5 });
    for (const [method, path, body] of [
      ['GET', '/api/me', undefined],
      ['GET', '/api/diagnose?model=gpt-4o-mini', undefined],
      ['POST', '/api/me/redeem', { code: codes[0] }],
    ] as const) {
      const response = await selfService(key, method, path, body);
      const text = await response.text();
      assert.equal(response.status, 403, `${path}: ${text}`);
      assert.equal(JSON.parse(text).error.code, code, path);
      assert.ok(!text.includes('@example.com'), `${path} shows nothing of the account`);
    }
    return codes[0] as string;
  };

  test('a key fenced to other addresses cannot read /api/me or /api/diagnose, nor redeem a code', async () => {
    const dov = await session('dov');
    const fenced = (await (await call(dov, 'POST', '/keys', { name: 'fenced', group: 'default', allowedIps: ['203.0.113.0/24'] })).json()) as any;
    const code = await expectRefused(fenced.key, 'ip_not_allowed');
    const open = (await (await call(dov, 'POST', '/keys', { name: 'open', group: 'default' })).json()) as any;
    const redeemed = await selfService(open.key, 'POST', '/api/me/redeem', { code });
    assert.equal(redeemed.status, 200, 'the refused redemption left the code unused');
    assert.equal((await selfService(open.key, 'GET', '/api/me')).status, 200);
  });

  test('a key of a disabled account, a disabled key and an expired key are refused by all three, saying why', async () => {
    const eli = await session('eli');
    const key = (await (await call(eli, 'POST', '/keys', { name: 'laptop', group: 'default' })).json()) as any;
    assert.equal((await selfService(key.key, 'GET', '/api/me')).status, 200);
    await harness.admin('PATCH', '/users/eli', { enabled: false });
    await expectRefused(key.key, 'key_disabled');

    const disabled = await harness.addKey({ enabled: false });
    await expectRefused(disabled.key, 'key_disabled');
    const expired = await harness.addKey({ expiresAt: '2021-01-01T00:00:00Z' });
    await expectRefused(expired.key, 'key_expired');
    const message = ((await (await selfService(expired.key, 'GET', '/api/me')).json()) as any).error.message;
    assert.match(message, /expired at 2021-01-01T00:00:00\.000Z/, 'the refusal still tells the holder why');
  });
});
