import { GatewayError } from '../core/gateway-error.ts';
import type { SignInAudience, SignInProvider } from '../domain/identity.ts';
import type { Kv } from '../kv/kv.ts';
import * as oidc from 'openid-client';

/** How long a started sign-in may take at the provider. */
const FLOW_TTL_MS = 10 * 60_000;

/** What a provider vouches for, after the code exchange and the ID token's checks. */
export interface ExternalIdentity {
  subject: string;
  email: string | null;
  /** Only a provider's explicit `email_verified: true` links an account. */
  emailVerified: boolean;
}

interface PendingFlow {
  provider: string;
  audience: SignInAudience;
  verifier: string;
  nonce: string;
}

/**
 * OIDC sign-in, authorization code with PKCE (S256), through `openid-client` (issue 29). A started
 * flow (PKCE verifier, nonce, audience) waits in the shared kv under its random `state` for ten
 * minutes, so the callback may land on any instance; the callback consumes it with one bounded
 * increment, so a state (and the code that came with it) is good for one sign-in only.
 */
export class OidcSignIn {
  private readonly configurations = new Map<string, Promise<oidc.Configuration>>();

  constructor(private readonly kv: Kv) {}

  async start(provider: SignInProvider, audience: SignInAudience, redirectUri: string): Promise<{ url: string; state: string }> {
    const config = await this.configuration(provider);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const pending: PendingFlow = { provider: provider.name, audience, verifier, nonce };
    await this.kv.setTexts([flowKey(state)], JSON.stringify(pending), FLOW_TTL_MS);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /** Exchanges the callback's code; refuses an unknown, expired, reused or foreign `state`. */
  async finish(provider: SignInProvider, callbackUrl: URL, state: string): Promise<{ identity: ExternalIdentity; audience: SignInAudience }> {
    const [text] = await this.kv.getTexts([flowKey(state)]);
    const pending = text === undefined ? undefined : (JSON.parse(text) as PendingFlow);
    if (!pending || pending.provider !== provider.name) throw refused('The sign-in expired or did not start here: start it again.');
    const first = await this.kv.adjust(`${flowKey(state)}:used`, 1, { max: 1, ttlMs: FLOW_TTL_MS });
    if (!first.applied) throw refused('This sign-in link was already used: start the sign-in again.');
    const config = await this.configuration(provider);
    let claims: Record<string, unknown> | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: pending.verifier, expectedState: state, expectedNonce: pending.nonce, idTokenExpected: true });
      claims = tokens.claims() as Record<string, unknown> | undefined;
    } catch (error) {
      throw refused(`The provider refused the sign-in (${error instanceof Error ? error.message : 'unknown error'}).`);
    }
    if (!claims || typeof claims.sub !== 'string') throw refused('The provider sent no subject.');
    return {
      audience: pending.audience,
      identity: { subject: claims.sub, email: typeof claims.email === 'string' ? claims.email.toLowerCase() : null, emailVerified: claims.email_verified === true },
    };
  }

  /** Discovery once per provider and settings (a changed provider is discovered again). */
  private configuration(provider: SignInProvider): Promise<oidc.Configuration> {
    const cacheKey = `${provider.name}|${provider.issuer}|${provider.clientId}|${provider.updatedAt}`;
    let found = this.configurations.get(cacheKey);
    if (!found) {
      // Plain HTTP only to an issuer on this machine (a lab Keycloak, the tests); anywhere else TLS.
      const insecure = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(provider.issuer);
      found = oidc.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, insecure ? { execute: [oidc.allowInsecureRequests] } : undefined);
      found.catch(() => this.configurations.delete(cacheKey));
      this.configurations.set(cacheKey, found);
    }
    return found;
  }
}

function flowKey(state: string): string {
  return `oidc:flow:${state}`;
}

function refused(message: string): GatewayError {
  return new GatewayError('sign_in_failed', message);
}
