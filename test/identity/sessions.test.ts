import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

type Json = Record<string, any>;

describe('sessions people can see and end (issue 29)', { timeout: 60_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  const signIn = async (base: '/api/account' | '/api/admin', login: string, password: string, device: string) => {
    const response = await fetch(`${harness.url}${base}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': device },
      body: JSON.stringify({ login, password }),
    });
    assert.equal(response.status, 200);
    const json = (await response.json()) as Json;
    return { cookie: response.headers.get('set-cookie')!.split(';')[0]!, csrf: json.csrfToken as string };
  };
  const call = async (base: string, session: { cookie: string; csrf: string }, method: string, path: string) => {
    const response = await fetch(`${harness.url}${base}${path}`, { method, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Json };
  };

  test('an account holder lists their sessions (device, address, last seen), ends one, then signs out everywhere', async () => {
    await harness.admin('POST', '/users', { name: 'wren', email: 'wren@example.com', password: 'wren-password-1' }, 201);
    const laptop = await signIn('/api/account', 'wren', 'wren-password-1', 'Laptop Firefox');
    const phone = await signIn('/api/account', 'wren', 'wren-password-1', 'Phone Safari');
    const tablet = await signIn('/api/account', 'wren', 'wren-password-1', 'Tablet Chrome');
    const listed = await call('/api/account', laptop, 'GET', '/sessions');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.json.data.map((entry: Json) => entry.device).sort(), ['Laptop Firefox', 'Phone Safari', 'Tablet Chrome']);
    const mine = listed.json.data.find((entry: Json) => entry.current);
    assert.equal(mine.device, 'Laptop Firefox');
    assert.equal(mine.address, '127.0.0.1');
    assert.ok(Date.parse(mine.lastSeenAt) > 0);
    assert.ok(!JSON.stringify(listed.json).includes(laptop.cookie.split('=')[1]!), 'the cookie is never listed');

    const phoneId = listed.json.data.find((entry: Json) => entry.device === 'Phone Safari').id;
    assert.equal((await call('/api/account', laptop, 'DELETE', `/sessions/${phoneId}`)).status, 204);
    assert.equal((await call('/api/account', phone, 'GET', '/')).status, 401, 'the ended session is signed out');
    assert.equal((await call('/api/account', tablet, 'GET', '/')).status, 200);

    // Another account cannot end wren's session by its id.
    await harness.admin('POST', '/users', { name: 'xan', email: 'xan@example.com', password: 'xan-password-1' }, 201);
    const xan = await signIn('/api/account', 'xan', 'xan-password-1', 'Xan');
    const tabletId = (await call('/api/account', laptop, 'GET', '/sessions')).json.data.find((entry: Json) => entry.device === 'Tablet Chrome').id;
    assert.equal((await call('/api/account', xan, 'DELETE', `/sessions/${tabletId}`)).status, 404);

    assert.equal((await call('/api/account', laptop, 'DELETE', '/sessions')).status, 204);
    assert.equal((await call('/api/account', laptop, 'GET', '/')).status, 401);
    assert.equal((await call('/api/account', tablet, 'GET', '/')).status, 401);
    assert.equal((await call('/api/account', xan, 'GET', '/')).status, 200, 'other accounts stay signed in');
  });

  test('an admin sees and ends an account’s sessions; an owner signs an admin out everywhere; a person ends their own console sessions', async () => {
    await harness.admin('POST', '/users', { name: 'yuri', email: 'yuri@example.com', password: 'yuri-password-1' }, 201);
    const yuri = await signIn('/api/account', 'yuri', 'yuri-password-1', 'Yuri Browser');
    const seen = await harness.admin('GET', '/users/yuri/sessions');
    assert.equal(seen.data.length, 1);
    assert.equal(seen.data[0].device, 'Yuri Browser');
    await harness.admin('DELETE', `/users/yuri/sessions/${seen.data[0].id}`, undefined, 204);
    assert.equal((await call('/api/account', yuri, 'GET', '/')).status, 401);

    await harness.admin('POST', '/admins', { name: 'zed', email: 'zed@example.com', role: 'support', password: 'zed-password-1' }, 201);
    const desk = await signIn('/api/admin', 'zed', 'zed-password-1', 'Desk');
    const home = await signIn('/api/admin', 'zed', 'zed-password-1', 'Home');
    const own = await call('/api/admin', desk, 'GET', '/me/sessions');
    assert.deepEqual(own.json.data.map((entry: Json) => entry.device).sort(), ['Desk', 'Home']);
    const homeId = own.json.data.find((entry: Json) => entry.device === 'Home').id;
    assert.equal((await call('/api/admin', desk, 'DELETE', `/me/sessions/${homeId}`)).status, 204);
    assert.equal((await call('/api/admin', home, 'GET', '/me')).status, 401);
    assert.equal((await harness.admin('GET', '/admins/zed/sessions')).data.length, 1);
    await harness.admin('DELETE', '/admins/zed/sessions', undefined, 204);
    assert.equal((await call('/api/admin', desk, 'GET', '/me')).status, 401);
  });
});
