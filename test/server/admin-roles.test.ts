import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_PERMISSIONS, ROLE_PERMISSIONS, roleAllows } from '../../src/access/admin-permissions.ts';
import { ADMIN_ROLES, type AdminRole } from '../../src/domain/admin.ts';
import { ADMIN_OPERATIONS } from '../../src/server/admin/admin-api-description.ts';
import { ADMIN_TOKEN, startHarness, UPSTREAM_SECRET, type Harness } from '../helpers/gateway-harness.ts';

type Json = Record<string, any>;
const DAY = 86_400_000;

describe('admin accounts with roles (issue 29)', () => {
  let harness: Harness;
  /** A minted token per role, made with the break-glass token. */
  const tokens = {} as Record<AdminRole, string>;

  const call = async (credential: { token?: string; cookie?: string; csrf?: string }, method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (credential.token) headers.authorization = `Bearer ${credential.token}`;
    if (credential.cookie) headers.cookie = credential.cookie;
    if (credential.csrf) headers['x-csrf-token'] = credential.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${harness.url}/api/admin${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    return {
      status: response.status,
      text,
      json: (text === '' || !response.headers.get('content-type')?.includes('json') ? undefined : JSON.parse(text)) as Json,
      headers: response.headers,
    };
  };
  const signIn = async (login: string, password: string) => {
    const response = await call({}, 'POST', '/session', { login, password });
    const cookie = response.headers.get('set-cookie')?.split(';')[0];
    return { ...response, cookie, csrf: response.json?.csrfToken as string | undefined };
  };

  before(async () => {
    harness = await startHarness();
    for (const role of ADMIN_ROLES) {
      const minted = await harness.admin('POST', '/tokens', { name: `t-${role}`, role, expiresAt: Date.now() + DAY }, 201);
      tokens[role] = minted.token;
    }
  });
  after(() => harness.close());

  test('the table says what the issue says of each role', () => {
    const allows = (role: AdminRole, method: string, route: string) => {
      const operation = ADMIN_OPERATIONS.find((entry) => entry.method === method && entry.route === `/api/admin${route}`);
      assert.ok(operation, `${method} ${route}`);
      return roleAllows(role, operation.permission);
    };
    for (const operation of ADMIN_OPERATIONS) assert.ok(allows('owner', operation.method, operation.route.slice(10)), 'owner: everything');
    assert.equal(allows('admin', 'POST', '/admins'), false, 'admin: not the admins');
    assert.equal(allows('admin', 'DELETE', '/channels/:id'), true);
    assert.equal(allows('finance', 'GET', '/channels'), false, 'finance: no channels');
    assert.equal(allows('finance', 'POST', '/users/:id/top-ups'), true, 'finance: wallets');
    assert.equal(allows('finance', 'POST', '/redemption-codes'), true, 'finance: codes');
    assert.equal(allows('support', 'GET', '/users'), true, 'support: reads accounts');
    assert.equal(allows('support', 'GET', '/logs'), true, 'support: reads logs');
    assert.equal(allows('support', 'POST', '/users/:id/top-ups'), false, 'support: no money');
    assert.equal(allows('support', 'PATCH', '/users/:id'), false, 'support: no account edits beyond suspending');
    for (const operation of ADMIN_OPERATIONS) {
      if (operation.method === 'GET') assert.ok(allows('auditor', 'GET', operation.route.slice(10)), `auditor reads ${operation.route}`);
      else if (operation.permission !== 'public' && operation.permission !== 'self')
        assert.ok(!allows('auditor', operation.method, operation.route.slice(10)), `auditor may not ${operation.method} ${operation.route}`);
    }
    for (const role of ADMIN_ROLES) for (const permission of ROLE_PERMISSIONS[role]) assert.ok(ADMIN_PERMISSIONS.includes(permission));
  });

  test('every admin route × every role: allowed, or 403 insufficient_role in the API error shape, as the table says', async () => {
    const wrong: string[] = [];
    for (const operation of ADMIN_OPERATIONS) {
      if (operation.permission === 'public') continue;
      const path = operation.route.slice('/api/admin'.length).replace(/:\w+/g, 'no-such-thing');
      for (const role of ADMIN_ROLES) {
        const response = await call(
          { token: tokens[role] },
          operation.method,
          path,
          operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {},
        );
        const refused = response.status === 403 && response.json?.error?.code === 'insufficient_role';
        const allowed = roleAllows(role, operation.permission);
        if (allowed === refused || response.status === 401 || response.status >= 500)
          wrong.push(`${role} ${operation.method} ${path}: ${response.status} ${response.text.slice(0, 120)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  test('support may suspend and resume (a body of only `enabled`/`status`), nothing more in the same call', async () => {
    const user = await harness.admin('POST', '/users', { name: 'suspendable', email: 'suspendable@example.com' }, 201);
    const suspended = await call({ token: tokens.support }, 'PATCH', `/users/${user.id}`, { enabled: false });
    assert.equal(suspended.status, 200, suspended.text);
    assert.equal(suspended.json.enabled, false);
    const more = await call({ token: tokens.support }, 'PATCH', `/users/${user.id}`, { enabled: true, balance: 100 });
    assert.equal(more.status, 403);
    assert.equal(more.json.error.code, 'insufficient_role');
    assert.equal((await call({ token: tokens.auditor }, 'PATCH', `/users/${user.id}`, { enabled: true })).status, 403);
  });

  test('an auditor reads everything and never sees a secret', async () => {
    await harness.addChannel({ provider: 'openai', models: ['m-secret'], name: 'secretive' });
    const key = await harness.addKey();
    await harness.admin('POST', '/admins', { name: 'hashed', email: 'hashed@example.com', role: 'support', password: 'correct horse battery' }, 201);
    const codes = await harness.admin('POST', '/redemption-codes', { kind: 'balance', amount: 1, count: 1 }, 201);
    const code = JSON.stringify(codes).match(/"code":"([^"]+)"/)?.[1];
    const ids: Record<string, string> = { ':id': 'secretive', ':name': 'default', ':model': 'm-secret' };
    const secrets = [UPSTREAM_SECRET, key.key, ADMIN_TOKEN, 'scrypt$', ...Object.values(tokens), ...(code ? [code] : [])];
    for (const operation of ADMIN_OPERATIONS.filter((entry) => entry.method === 'GET')) {
      const path = operation.route.slice(10).replace(/:\w+/g, (name) => ids[name] ?? 'x');
      const response = await call({ token: tokens.auditor }, 'GET', path);
      assert.notEqual(response.status, 403, path);
      for (const secret of secrets) assert.ok(!response.text.includes(secret), `${path} shows a secret to the auditor`);
    }
  });

  test('a person signs in with name or e-mail, works with the cookie and the CSRF header, is named in the audit log, and signs out', async () => {
    await harness.admin('POST', '/admins', { name: 'alice', email: 'Alice@Example.com', role: 'admin', password: 'alice-password-1' }, 201);
    const wrong = await signIn('alice', 'not-her-password');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.cookie, undefined);
    const byEmail = await signIn('ALICE@example.com', 'alice-password-1');
    assert.equal(byEmail.status, 200, byEmail.text);
    const session = await signIn('alice', 'alice-password-1');
    assert.equal(session.json.admin.role, 'admin');
    assert.equal(session.json.admin.passwordHash, undefined);
    const setCookie = session.headers.get('set-cookie') ?? '';
    assert.match(setCookie, /^switchyard_console=[A-Za-z0-9_-]{43}; Path=\/api\/admin; Max-Age=43200; HttpOnly; SameSite=Strict$/);

    const me = await call({ cookie: session.cookie }, 'GET', '/me');
    assert.deepEqual([me.json.name, me.json.role, me.json.via], ['alice', 'admin', 'session']);
    const noCsrf = await call({ cookie: session.cookie }, 'POST', '/groups', { name: 'by-alice' });
    assert.equal(noCsrf.status, 403);
    assert.equal(noCsrf.json.error.code, 'csrf_failed');
    const crossSite = await fetch(`${harness.url}/api/admin/groups`, {
      method: 'POST',
      headers: { cookie: session.cookie!, 'x-csrf-token': session.csrf!, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'by-alice' }),
    });
    assert.equal(crossSite.status, 403);
    const created = await call({ cookie: session.cookie, csrf: session.csrf }, 'POST', '/groups', { name: 'by-alice' });
    assert.equal(created.status, 201, created.text);
    const ownersOnly = await call({ cookie: session.cookie, csrf: session.csrf }, 'POST', '/admins', {
      name: 'eve',
      email: 'eve@example.com',
      role: 'owner',
      password: 'eve-password-1',
    });
    assert.equal(ownersOnly.status, 403);
    assert.equal(ownersOnly.json.error.code, 'insufficient_role');

    const audit = await harness.admin('GET', '/audit?kind=group');
    assert.equal(audit.data.find((entry: Json) => entry.targetName === 'by-alice').actor, 'alice');

    assert.equal((await call({ cookie: session.cookie, csrf: session.csrf }, 'DELETE', '/session')).status, 204);
    assert.equal((await call({ cookie: session.cookie }, 'GET', '/me')).status, 401);
    assert.equal((await call({ cookie: byEmail.cookie }, 'GET', '/me')).status, 200, 'signing out ends this session only');
  });

  test('a minted token is shown once, stored hashed, never holds more than its maker, and dies with its maker', async () => {
    const listed = await harness.admin('GET', '/tokens');
    assert.ok(listed.data.length >= ADMIN_ROLES.length);
    for (const token of Object.values(tokens)) assert.ok(!JSON.stringify(listed).includes(token));
    const breakGlassMe = await harness.admin('GET', '/me');
    assert.deepEqual([breakGlassMe.name, breakGlassMe.role, breakGlassMe.via], ['break-glass', 'owner', 'break-glass']);

    const escalate = await call({ token: tokens.finance }, 'POST', '/tokens', { name: 'up', role: 'admin', expiresAt: Date.now() + DAY });
    assert.equal(escalate.status, 403, 'finance holds no tokens.write');
    const bob = await harness.admin('POST', '/admins', { name: 'bob', email: 'bob@example.com', role: 'admin', password: 'bob-password-12' }, 201);
    const session = await signIn('bob', 'bob-password-12');
    const tooMuch = await call({ cookie: session.cookie, csrf: session.csrf }, 'POST', '/tokens', {
      name: 'owner-please',
      role: 'owner',
      expiresAt: Date.now() + DAY,
    });
    assert.equal(tooMuch.status, 403);
    assert.equal(tooMuch.json.error.code, 'insufficient_role');
    const past = await call({ cookie: session.cookie, csrf: session.csrf }, 'POST', '/tokens', {
      name: 'stale',
      role: 'auditor',
      expiresAt: Date.now() - 1000,
    });
    assert.equal(past.status, 400);
    const minted = await call({ cookie: session.cookie, csrf: session.csrf }, 'POST', '/tokens', { name: 'ci', role: 'support', expiresAt: Date.now() + DAY });
    assert.equal(minted.status, 201, minted.text);
    assert.match(minted.json.token, /^syt-[A-Za-z0-9]{40}$/);
    const asToken = await call({ token: minted.json.token }, 'GET', '/me');
    assert.deepEqual([asToken.json.name, asToken.json.role], ['token ci (by bob)', 'support']);

    await harness.admin('PATCH', `/admins/${bob.id}`, { enabled: false });
    assert.equal((await call({ token: minted.json.token }, 'GET', '/me')).status, 401, 'a disabled maker’s token stops');
    assert.equal((await call({ cookie: session.cookie }, 'GET', '/me')).status, 401, 'a disabled admin’s session ends');
  });

  test('the last enabled owner cannot be demoted, disabled or removed', async () => {
    const owner = await harness.admin('POST', '/admins', { name: 'olga', email: 'olga@example.com', role: 'owner', password: 'olga-password-1' }, 201);
    for (const [method, body] of [
      ['PATCH', { role: 'auditor' }],
      ['PATCH', { enabled: false }],
      ['DELETE', undefined],
    ] as const) {
      const response = await call({ token: ADMIN_TOKEN }, method, `/admins/${owner.id}`, body);
      assert.equal(response.status, 409, `${method} ${JSON.stringify(body)}`);
    }
    await harness.admin('POST', '/admins', { name: 'oscar', email: 'oscar@example.com', role: 'owner', password: 'oscar-password-1' }, 201);
    await harness.admin('DELETE', `/admins/${owner.id}`, undefined, 204);
  });

  test('admin sign-in is throttled per admin before the password is checked: after 5 failures even the right password waits', async () => {
    await harness.admin('POST', '/admins', { name: 'carol', email: 'carol@example.com', role: 'auditor', password: 'carol-password-1' }, 201);
    const attempts = await Promise.all(Array.from({ length: 8 }, () => signIn('carol', 'wrong-password')));
    assert.deepEqual(attempts.map((attempt) => attempt.status).sort(), [401, 401, 401, 401, 401, 429, 429, 429]);
    const right = await signIn('carol', 'carol-password-1');
    assert.equal(right.status, 429);
    assert.ok(Number(right.headers.get('retry-after')) > 0);
    assert.equal((await signIn('dave-unknown', 'x')).status, 401, 'another login from the address still gets its answer');
  });
});
