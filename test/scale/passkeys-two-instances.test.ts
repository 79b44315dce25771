import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SoftAuthenticator } from '../helpers/soft-authenticator.ts';
import { startScaleHarness, type ScaleHarness } from './scale-harness.ts';

const PUBLIC_URL = 'https://gateway.test';

/** Issue 29 on two instances sharing PostgreSQL and Redis: a passkey ceremony started on one finishes on the other, once. */
describe('passkeys on two instances sharing PostgreSQL and Redis', () => {
  let harness: ScaleHarness;
  before(async () => {
    harness = await startScaleHarness({ overrides: { publicUrl: PUBLIC_URL } });
  });
  after(() => harness.close());

  const post = async (instance: number, path: string, cookie: string, body?: unknown, csrf?: string) => {
    const response = await fetch(`${harness.instances[instance]!.url}/api/account${path}`, {
      method: 'POST',
      headers: { cookie, ...(csrf ? { 'x-csrf-token': csrf } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const setCookie = response.headers.getSetCookie().map((line) => line.split(';')[0]!);
    return { status: response.status, json: (await response.json()) as Record<string, any>, setCookie };
  };

  test('registered on A, signed in on B with a challenge from A; the same answer replayed on A is refused', async () => {
    await harness.admin(0, 'POST', '/users', { name: 'tia', email: 'tia@example.com', password: 'tia-password-1' }, 201);
    const signIn = await post(0, '/session', '', { login: 'tia', password: 'tia-password-1' });
    assert.equal(signIn.status, 200);
    const session = signIn.setCookie[0]!;
    const authenticator = new SoftAuthenticator(PUBLIC_URL);
    const options = await post(1, '/passkeys/options', session, undefined, signIn.json.csrfToken);
    assert.equal(options.status, 200);
    const registered = await post(
      0,
      '/passkeys',
      `${session}; ${options.setCookie[0]}`,
      { response: authenticator.register(options.json as any) },
      signIn.json.csrfToken,
    );
    assert.equal(registered.status, 201, JSON.stringify(registered.json));

    const started = await post(0, '/passkey-session/options', '');
    const ceremony = started.setCookie[0]!;
    const answer = { response: authenticator.assert(started.json as any) };
    const [onB, onA] = [await post(1, '/passkey-session', ceremony, answer), await post(0, '/passkey-session', ceremony, answer)];
    assert.equal(onB.status, 200, JSON.stringify(onB.json));
    assert.equal(onA.status, 401, 'the challenge was spent on the other instance');
  });
});
