import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Provider from 'oidc-provider';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

const CLIENT_SECRET = 'provider-client-secret-0123456789';
const PEOPLE: Record<string, { email: string; verified: boolean }> = {
  'kc-ada': { email: 'ada@example.com', verified: true },
  'kc-eve': { email: 'eve@example.com', verified: false },
  'kc-ops': { email: 'ops@example.com', verified: true },
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Drives a browser through the provider's login and consent pages (oidc-provider's dev
 * interactions) with a cookie jar, up to the redirect back to the gateway; answers that URL.
 */
async function loginAtProvider(authorizationUrl: string, accountId: string, gatewayUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let loggedIn = false;
  for (let hop = 0; hop < 12; hop++) {
    const isInteraction = /\/interaction\/[^/]+$/.test(new URL(url).pathname);
    const headers: Record<string, string> = { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') };
    const init: RequestInit = { redirect: 'manual', headers };
    if (isInteraction) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      init.method = 'POST';
      init.body = new URLSearchParams(loggedIn ? { prompt: 'consent' } : { prompt: 'login', login: accountId }).toString();
      loggedIn = true;
    }
    const response = await fetch(url, init);
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const index = pair!.indexOf('=');
      jar.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
    const location = response.headers.get('location');
    assert.ok(location, `hop ${hop} to ${url}: ${response.status} ${await response.text()}`);
    url = new URL(location, url).href;
    if (url.startsWith(gatewayUrl)) return url;
  }
  throw new Error('the provider never sent the browser back');
}

describe('OIDC sign-in with a real oidc-provider (issue 29)', { timeout: 90_000 }, () => {
  let harness: Harness;
  let providerServer: Server;

  before(async () => {
    const gatewayPort = await freePort();
    const providerPort = await freePort();
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const issuer = `http://127.0.0.1:${providerPort}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'switchyard',
          client_secret: CLIENT_SECRET,
          redirect_uris: [`${gatewayUrl}/api/auth/keycloak/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      findAccount: async (_context: unknown, id: string) => ({
        accountId: id,
        claims: async () => ({ sub: id, email: PEOPLE[id]?.email, email_verified: PEOPLE[id]?.verified }),
      }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['oidc-test-cookie-key'] },
    } as any);
    providerServer = provider.listen(providerPort, '127.0.0.1');
    harness = await startHarness({ port: gatewayPort, publicUrl: gatewayUrl });
    await harness.admin(
      'POST',
      '/sign-in-providers',
      { type: 'oidc', name: 'keycloak', issuer, clientId: 'switchyard', clientSecret: CLIENT_SECRET, audiences: ['portal', 'console'] },
      201,
    );
    await harness.admin('POST', '/users', { name: 'ada', email: 'ada@example.com' }, 201);
    await harness.admin('POST', '/users', { name: 'eve', email: 'eve@example.com' }, 201);
    await harness.admin('POST', '/admins', { name: 'ops', email: 'ops@example.com', role: 'auditor', password: 'ops-password-123' }, 201);
  });
  after(async () => {
    await harness.close();
    providerServer.close();
  });

  /** Starts a sign-in at the gateway: the provider's URL and the browser-binding cookie. */
  const start = async (audience: string) => {
    const response = await fetch(`${harness.url}/api/auth/keycloak/start?audience=${audience}`, { redirect: 'manual' });
    assert.equal(response.status, 302, await response.text());
    const location = response.headers.get('location')!;
    assert.match(location, /code_challenge_method=S256/);
    return { location, cookie: response.headers.getSetCookie()[0]!.split(';')[0]! };
  };
  const callback = (url: string, cookie: string) => fetch(url, { redirect: 'manual', headers: { cookie } });

  test('a verified e-mail signs the account holder in to the portal; the code and state work once', async () => {
    const flow = await start('portal');
    const back = await loginAtProvider(flow.location, 'kc-ada', harness.url);
    const answered = await callback(back, flow.cookie);
    assert.equal(answered.status, 302, await answered.clone().text());
    assert.equal(answered.headers.get('location'), '/console');
    const session = answered.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('switchyard_account='))!
      .split(';')[0]!;
    const account = (await (await fetch(`${harness.url}/api/account`, { headers: { cookie: session } })).json()) as any;
    assert.equal(account.user.name, 'ada');

    const replayed = await callback(back, flow.cookie);
    assert.equal(replayed.status, 401, 'a replayed code and state are refused');
  });

  test('an unverified e-mail links nothing', async () => {
    const flow = await start('portal');
    const answered = await callback(await loginAtProvider(flow.location, 'kc-eve', harness.url), flow.cookie);
    assert.equal(answered.status, 401);
    assert.match(await answered.text(), /verified/);
    assert.ok(!answered.headers.getSetCookie().some((cookie) => cookie.startsWith('switchyard_account=')));
  });

  test('a wrong state, or a callback from another browser, is refused', async () => {
    const flow = await start('portal');
    const back = new URL(await loginAtProvider(flow.location, 'kc-ada', harness.url));
    back.searchParams.set('state', 'forged-state');
    assert.equal((await callback(back.href, 'switchyard_oauth=forged-state')).status, 401, 'a state the gateway never issued');
    back.searchParams.set('state', flow.cookie.split('=')[1]!);
    assert.equal((await callback(back.href, 'switchyard_oauth=someone-else')).status, 401, 'another browser');
  });

  test('the console audience signs an admin in by verified e-mail', async () => {
    const flow = await start('console');
    const answered = await callback(await loginAtProvider(flow.location, 'kc-ops', harness.url), flow.cookie);
    assert.equal(answered.status, 302, await answered.clone().text());
    const session = answered.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('switchyard_console='))!
      .split(';')[0]!;
    const me = (await (await fetch(`${harness.url}/api/admin/me`, { headers: { cookie: session } })).json()) as any;
    assert.deepEqual([me.name, me.role, me.via], ['ops', 'auditor', 'session']);
    const listed = JSON.stringify(await harness.admin('GET', '/sign-in-providers'));
    assert.ok(!listed.includes(CLIENT_SECRET), 'the client secret is never shown');
  });
});
