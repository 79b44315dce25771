import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startScaleHarness, type ScaleHarness } from './scale-harness.ts';

/** Issue 29 on two instances sharing PostgreSQL and Redis: people, sessions, tokens and the sign-in throttle are shared. */
describe('admin people on two instances sharing PostgreSQL and Redis', () => {
  let harness: ScaleHarness;
  before(async () => {
    harness = await startScaleHarness();
  });
  after(() => harness.close());

  const post = (instance: number, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${harness.instances[instance]!.url}/api/admin${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const get = (instance: number, path: string, headers: Record<string, string>) => fetch(`${harness.instances[instance]!.url}/api/admin${path}`, { headers });

  test('an admin made on A signs in on B; the session and a minted token work on both; the role holds on both', async () => {
    await harness.admin(0, 'POST', '/admins', { name: 'amy', email: 'amy@example.com', role: 'support', password: 'amy-password-1' }, 201);
    const signIn = await post(1, '/session', { login: 'amy@example.com', password: 'amy-password-1' });
    assert.equal(signIn.status, 200);
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    for (const instance of [0, 1]) {
      const me = await get(instance, '/me', { cookie });
      assert.equal(me.status, 200, `instance ${instance}`);
      assert.equal(((await me.json()) as { name: string }).name, 'amy');
      const refused = await post(instance, '/groups', { name: `g${instance}` }, { cookie, 'x-csrf-token': csrfToken });
      assert.equal(refused.status, 403, 'support may not create groups');
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'insufficient_role');
    }
    const minted = await harness.admin(0, 'POST', '/tokens', { name: 'ci', role: 'auditor', expiresAt: Date.now() + 86_400_000 }, 201);
    assert.equal((await get(1, '/channels', { authorization: `Bearer ${minted.token}` })).status, 200);
    await harness.admin(1, 'DELETE', `/tokens/${minted.id}`, undefined, 204);
    assert.equal((await get(0, '/channels', { authorization: `Bearer ${minted.token}` })).status, 401, 'revoked on B, refused on A');
  });

  test('the admin sign-in throttle is one budget over both instances: 8 wrong passwords split over A and B, at most 5 checked', async () => {
    await harness.admin(0, 'POST', '/admins', { name: 'ben', email: 'ben@example.com', role: 'auditor', password: 'ben-password-12' }, 201);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, index) => post(index % 2, '/session', { login: 'ben', password: 'wrong-password' }).then((response) => response.status)),
    );
    assert.deepEqual(statuses.sort(), [401, 401, 401, 401, 401, 429, 429, 429]);
    assert.equal((await post(1, '/session', { login: 'ben', password: 'ben-password-12' })).status, 429);
  });
});
