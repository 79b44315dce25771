import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

const CLIENT_ID = 'Iv1.switchyard';
const CLIENT_SECRET = 'github-client-secret-0123456789';
const USERS: Record<string, { id: number; emails: Array<{ email: string; primary: boolean; verified: boolean }> }> = {
  gina: { id: 101, emails: [{ email: 'gina@example.com', primary: true, verified: true }] },
  hal: {
    id: 102,
    emails: [
      { email: 'hal@example.com', primary: true, verified: false },
      { email: 'hal@other.example', primary: false, verified: true },
    ],
  },
};

/**
 * A simulator of GitHub's OAuth endpoints that refuses what GitHub refuses: an unknown client or
 * redirect, a wrong secret, a code used twice or with the wrong PKCE verifier, an API call
 * without the token.
 */
async function startGithub(redirectUri: () => string): Promise<{ url: string; server: Server; login(user: string): void }> {
  let nextUser = 'gina';
  const codes = new Map<string, { user: string; challenge: string; redirect: string }>();
  const tokens = new Map<string, string>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://github.test');
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const query = url.searchParams;
      if (query.get('client_id') !== CLIENT_ID || query.get('redirect_uri') !== redirectUri() || query.get('code_challenge_method') !== 'S256')
        return json(400, { error: 'redirect_uri_mismatch' });
      const code = randomBytes(10).toString('hex');
      codes.set(code, { user: nextUser, challenge: query.get('code_challenge') ?? '', redirect: query.get('redirect_uri')! });
      response.writeHead(302, { location: `${redirectUri()}?code=${code}&state=${encodeURIComponent(query.get('state') ?? '')}` });
      return response.end();
    }
    if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const form = new URLSearchParams(body);
        if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET) return json(200, { error: 'incorrect_client_credentials' });
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (!grant || grant.redirect !== form.get('redirect_uri') || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
          return json(200, { error: 'bad_verification_code' });
        const token = `gho_${randomBytes(12).toString('hex')}`;
        tokens.set(token, grant.user);
        json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      });
      return;
    }
    const user = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!user) return json(401, { message: 'Requires authentication' });
    if (url.pathname === '/user') return json(200, { id: USERS[user]!.id, login: user });
    if (url.pathname === '/user/emails') return json(200, USERS[user]!.emails);
    json(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, login: (name) => (nextUser = name) };
}

describe('GitHub OAuth sign-in against a simulator of its endpoints (issue 29)', { timeout: 60_000 }, () => {
  let harness: Harness;
  let github: Awaited<ReturnType<typeof startGithub>>;

  before(async () => {
    const reserve = createServer();
    await new Promise<void>((resolve) => reserve.listen(0, '127.0.0.1', resolve));
    const port = (reserve.address() as AddressInfo).port;
    await new Promise((resolve) => reserve.close(resolve));
    const gatewayUrl = `http://127.0.0.1:${port}`;
    github = await startGithub(() => `${gatewayUrl}/api/auth/github/callback`);
    harness = await startHarness({ port, publicUrl: gatewayUrl });
    await harness.admin(
      'POST',
      '/sign-in-providers',
      { type: 'github', name: 'github', issuer: github.url, apiBase: github.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, audiences: ['portal'] },
      201,
    );
    await harness.admin('POST', '/users', { name: 'gina', email: 'gina@example.com' }, 201);
    await harness.admin('POST', '/users', { name: 'hal', email: 'hal@example.com' }, 201);
  });
  after(async () => {
    await harness.close();
    github.server.close();
  });

  /** Start → GitHub's authorize → the callback URL, with the browser-binding cookie. */
  const throughGithub = async (user: string) => {
    github.login(user);
    const started = await fetch(`${harness.url}/api/auth/github/start?audience=portal`, { redirect: 'manual' });
    assert.equal(started.status, 302, await started.text());
    const authorized = await fetch(started.headers.get('location')!, { redirect: 'manual' });
    assert.equal(authorized.status, 302);
    return { url: authorized.headers.get('location')!, cookie: started.headers.getSetCookie()[0]!.split(';')[0]! };
  };

  test('a verified primary e-mail signs the account in; the callback works once', async () => {
    const flow = await throughGithub('gina');
    const answered = await fetch(flow.url, { redirect: 'manual', headers: { cookie: flow.cookie } });
    assert.equal(answered.status, 302, await answered.clone().text());
    const session = answered.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('switchyard_account='))!
      .split(';')[0]!;
    assert.equal(((await (await fetch(`${harness.url}/api/account`, { headers: { cookie: session } })).json()) as any).user.name, 'gina');
    assert.equal((await fetch(flow.url, { redirect: 'manual', headers: { cookie: flow.cookie } })).status, 401, 'replayed');
  });

  test('an unverified primary e-mail links nothing, even with another verified address', async () => {
    const flow = await throughGithub('hal');
    const answered = await fetch(flow.url, { redirect: 'manual', headers: { cookie: flow.cookie } });
    assert.equal(answered.status, 401);
    assert.match(await answered.text(), /verified/);
  });

  test('the console is not an audience of this provider', async () => {
    const refused = await fetch(`${harness.url}/api/auth/github/start?audience=console`, { redirect: 'manual' });
    assert.equal(refused.status, 403);
  });
});
