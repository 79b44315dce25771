import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { SoftAuthenticator } from '../helpers/soft-authenticator.ts';

type Json = Record<string, any>;
const PUBLIC_URL = 'https://gateway.test';

/** A browser of one API: a cookie jar (session and passkey ceremony cookies) and the session's CSRF token. */
function browser(harness: Harness, base: '/api/admin' | '/api/account') {
  const jar = new Map<string, string>();
  let csrf: string | undefined;
  return {
    jar,
    async call(method: string, path: string, body?: unknown) {
      const headers: Record<string, string> = {};
      if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      if (csrf) headers['x-csrf-token'] = csrf;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${harness.url}${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const index = (pair ?? '').indexOf('=');
        jar.set(pair!.slice(0, index), pair!.slice(index + 1));
      }
      const text = await response.text();
      const json = (text === '' ? undefined : JSON.parse(text)) as Json;
      if (response.status === 200 && typeof json?.csrfToken === 'string') csrf = json.csrfToken;
      return { status: response.status, text, json };
    },
  };
}

/** Registers `authenticator` as a passkey of whoever `signedIn` is. */
async function register(signedIn: ReturnType<typeof browser>, prefix: '' | '/me', authenticator: SoftAuthenticator, name?: string) {
  const options = await signedIn.call('POST', `${prefix}/passkeys/options`);
  assert.equal(options.status, 200, options.text);
  assert.equal(options.json.rp.id, 'gateway.test', 'the relying party is PUBLIC_URL’s host');
  assert.equal(options.json.authenticatorSelection.userVerification, 'required');
  const saved = await signedIn.call('POST', `${prefix}/passkeys`, { ...(name ? { name } : {}), response: authenticator.register(options.json as any) });
  assert.equal(saved.status, 201, saved.text);
  return saved.json;
}

describe('passkeys (issue 29): registration and sign-in, server side', { timeout: 60_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness({ publicUrl: PUBLIC_URL });
  });
  after(() => harness.close());

  test('an account holder registers a passkey and signs in with it; replay, reuse, another browser, a wrong origin and a stale counter are refused', async () => {
    await harness.admin('POST', '/users', { name: 'pia', email: 'pia@example.com', password: 'pia-password-1' }, 201);
    const pia = browser(harness, '/api/account');
    assert.equal((await pia.call('POST', '/session', { login: 'pia', password: 'pia-password-1' })).status, 200);
    const authenticator = new SoftAuthenticator(PUBLIC_URL);
    const saved = await register(pia, '', authenticator, 'laptop');
    assert.equal(saved.name, 'laptop');
    assert.equal((await pia.call('GET', '/passkeys')).json.data.length, 1);
    assert.ok(!JSON.stringify((await pia.call('GET', '/passkeys')).json).includes(authenticator.credentialId), 'the view carries no credential material');

    const device = browser(harness, '/api/account');
    const options = await device.call('POST', '/passkey-session/options');
    assert.equal(options.status, 200, options.text);
    assert.equal(options.json.userVerification, 'required');
    const assertion = authenticator.assert(options.json as any);
    const signedIn = await device.call('POST', '/passkey-session', { response: assertion });
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.equal(signedIn.json.user.name, 'pia');
    assert.equal((await device.call('GET', '')).status, 200, 'the passkey opened a portal session');

    const replayed = await device.call('POST', '/passkey-session', { response: assertion });
    assert.equal(replayed.status, 401, 'a replayed assertion finds its challenge spent');
    assert.equal(replayed.json.error.code, 'sign_in_failed');

    // Reused challenge: a second, freshly signed answer to one challenge.
    const once = browser(harness, '/api/account');
    const challenge = (await once.call('POST', '/passkey-session/options')).json;
    assert.equal((await once.call('POST', '/passkey-session', { response: authenticator.assert(challenge as any) })).status, 200);
    assert.equal((await once.call('POST', '/passkey-session', { response: authenticator.assert(challenge as any) })).status, 401, 'a challenge is used once');

    // The replayed assertion in a new ceremony: its signed challenge is not this one.
    const fresh = browser(harness, '/api/account');
    await fresh.call('POST', '/passkey-session/options');
    assert.equal((await fresh.call('POST', '/passkey-session', { response: assertion })).status, 401, 'an old assertion does not answer a new challenge');

    const elsewhere = browser(harness, '/api/account');
    const stolen = (await browser(harness, '/api/account').call('POST', '/passkey-session/options')).json;
    assert.equal(
      (await elsewhere.call('POST', '/passkey-session', { response: authenticator.assert(stolen as any) })).status,
      401,
      'a challenge finishes only in the browser that asked',
    );

    const phishing = browser(harness, '/api/account');
    const phished = (await phishing.call('POST', '/passkey-session/options')).json;
    const wrongOrigin = await phishing.call('POST', '/passkey-session', {
      response: authenticator.assert(phished as any, { origin: 'https://gateway.test.evil.example' }),
    });
    assert.equal(wrongOrigin.status, 401, 'an assertion made for another origin is refused');
    assert.match(wrongOrigin.json.error.message, /origin/i);

    const clone = browser(harness, '/api/account');
    const cloned = (await clone.call('POST', '/passkey-session/options')).json;
    assert.equal(
      (await clone.call('POST', '/passkey-session', { response: authenticator.assert(cloned as any, { counter: 1 }) })).status,
      401,
      'a counter that went back betrays a cloned authenticator',
    );

    const renamed = await pia.call('PATCH', `/passkeys/${saved.id}`, { name: 'old laptop' });
    assert.equal(renamed.json.name, 'old laptop');
    assert.equal((await pia.call('DELETE', `/passkeys/${saved.id}`)).status, 204);
    const gone = browser(harness, '/api/account');
    const after = (await gone.call('POST', '/passkey-session/options')).json;
    assert.equal(
      (await gone.call('POST', '/passkey-session', { response: authenticator.assert(after as any) })).status,
      401,
      'a removed passkey signs no one in',
    );
  });

  test('an admin passkey: a two-factor sign-in that satisfies requireAdminTotp, not a portal key; owners remove it; OIDC only turns it off', async () => {
    const created = await harness.admin('POST', '/admins', { name: 'quinn', email: 'quinn@example.com', role: 'admin', password: 'quinn-password-1' }, 201);
    await harness.admin('PATCH', '/sign-in-settings', { requireAdminTotp: true });
    try {
      const quinn = browser(harness, '/api/admin');
      assert.equal((await quinn.call('POST', '/session', { login: 'quinn', password: 'quinn-password-1' })).status, 200);
      assert.equal((await quinn.call('GET', '/groups')).json.error.code, 'totp_enrolment_required');
      const authenticator = new SoftAuthenticator(PUBLIC_URL);
      await register(quinn, '/me', authenticator);

      const portal = browser(harness, '/api/account');
      const portalOptions = (await portal.call('POST', '/passkey-session/options')).json;
      assert.equal(
        (await portal.call('POST', '/passkey-session', { response: authenticator.assert(portalOptions as any) })).status,
        401,
        'an admin passkey opens no portal session',
      );

      const console = browser(harness, '/api/admin');
      const options = (await console.call('POST', '/session/passkey/options')).json;
      const signedIn = await console.call('POST', '/session/passkey', { response: authenticator.assert(options as any) });
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.equal(signedIn.json.admin.name, 'quinn');
      assert.equal((await console.call('GET', '/groups')).status, 200, 'a passkey session is two factors: requireAdminTotp is satisfied');

      const listed = await harness.admin('GET', `/admins/${created.id}/passkeys`);
      assert.equal(listed.data.length, 1);
      await harness.admin('PATCH', '/sign-in-settings', { oidcOnly: true });
      const closed = await browser(harness, '/api/admin').call('POST', '/session/passkey/options');
      assert.equal(closed.status, 403);
      assert.equal(closed.json.error.code, 'sign_in_method_disabled');
      await harness.admin('PATCH', '/sign-in-settings', { oidcOnly: false });
      await harness.admin('DELETE', `/admins/${created.id}/passkeys/${listed.data[0].id}`, undefined, 204);
      assert.equal((await quinn.call('GET', '/me/passkeys')).json.data.length, 0);
    } finally {
      await harness.admin('PATCH', '/sign-in-settings', { requireAdminTotp: false, oidcOnly: false });
    }
  });

  test('a token has no passkeys of its own, and PUBLIC_URL is required', async () => {
    const byToken = await fetch(`${harness.url}/api/admin/me/passkeys/options`, {
      method: 'POST',
      headers: { authorization: 'Bearer sya-test-admin-token-0123456789' },
    });
    assert.equal(byToken.status, 400);
    const bare = await startHarness();
    try {
      const refused = await fetch(`${bare.url}/api/account/passkey-session/options`, { method: 'POST' });
      assert.equal(refused.status, 500);
      assert.match(await refused.text(), /PUBLIC_URL/);
    } finally {
      await bare.close();
    }
  });
});
