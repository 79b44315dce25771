import { createHash, randomBytes } from 'node:crypto';
import type { SignInAudience, SignInProvider } from '../domain/identity.ts';
import type { ExternalIdentity } from './oidc-sign-in.ts';
import { signInRefused, type SignInFlows } from './sign-in-flows.ts';

const GITHUB_API = 'https://api.github.com';

/**
 * GitHub's OAuth (not OIDC): authorize at `{issuer}/login/oauth/authorize` with PKCE (S256),
 * exchange the code at `{issuer}/login/oauth/access_token`, then read `{apiBase}/user` and
 * `{apiBase}/user/emails`; only the primary address GitHub marks verified links an account.
 */
export class GithubSignIn {
  constructor(private readonly flows: SignInFlows) {}

  async start(provider: SignInProvider, audience: SignInAudience, redirectUri: string): Promise<{ url: string; state: string }> {
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(32).toString('base64url');
    await this.flows.save(state, { provider: provider.name, audience, verifier });
    const url = new URL('/login/oauth/authorize', provider.issuer);
    url.search = new URLSearchParams({
      client_id: provider.clientId,
      redirect_uri: redirectUri,
      scope: 'read:user user:email',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      allow_signup: 'false',
    }).toString();
    return { url: url.href, state };
  }

  async finish(provider: SignInProvider, code: string, state: string, redirectUri: string): Promise<{ identity: ExternalIdentity; audience: SignInAudience }> {
    const pending = await this.flows.take(state, provider.name);
    const token = await this.exchange(provider, code, pending.verifier, redirectUri);
    const api = provider.apiBase ?? GITHUB_API;
    const user = (await this.get(`${api}/user`, token)) as { id?: unknown };
    const emails = (await this.get(`${api}/user/emails`, token)) as Array<{ email?: unknown; primary?: unknown; verified?: unknown }>;
    if (typeof user.id !== 'number' && typeof user.id !== 'string') throw signInRefused('GitHub sent no user id.');
    const primary = Array.isArray(emails) ? emails.find((entry) => entry.primary === true && typeof entry.email === 'string') : undefined;
    return {
      audience: pending.audience,
      identity: { subject: String(user.id), email: primary ? String(primary.email).toLowerCase() : null, emailVerified: primary?.verified === true },
    };
  }

  private async exchange(provider: SignInProvider, code: string, verifier: string, redirectUri: string): Promise<string> {
    const response = await fetch(new URL('/login/oauth/access_token', provider.issuer), {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined);
    const answer = response?.ok ? ((await response.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown }) : {};
    // GitHub answers 200 with {error: "bad_verification_code"} for a used or wrong code.
    if (typeof answer.access_token !== 'string')
      throw signInRefused(`GitHub refused the sign-in (${typeof answer.error === 'string' ? answer.error : 'no token'}).`);
    return answer.access_token;
  }

  private async get(url: string, token: string): Promise<unknown> {
    const response = await fetch(url, {
      headers: { accept: 'application/vnd.github+json', authorization: `Bearer ${token}`, 'user-agent': 'switchyard' },
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined);
    if (!response?.ok) throw signInRefused(`GitHub's API refused ${new URL(url).pathname} (${response?.status ?? 'unreachable'}).`);
    return response.json();
  }
}
