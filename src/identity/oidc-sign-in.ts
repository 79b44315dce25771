import type * as Oidc from 'openid-client';
import type { SignInAudience, SignInProvider } from '../domain/identity.ts';
import { signInRefused as refused, type SignInFlows } from './sign-in-flows.ts';

/** What a provider vouches for, after the code exchange and the ID token's checks. */
export interface ExternalIdentity {
  subject: string;
  email: string | null;
  /** Only a provider's explicit `email_verified: true` links an account. */
  emailVerified: boolean;
}

/** openid-client (with jose and oauth4webapi) is loaded on the first sign-in through a provider, not at start-up (idle RSS). */
const loadOidc = (): Promise<typeof Oidc> => import('openid-client');

/**
 * OIDC sign-in, authorization code with PKCE (S256) and a nonce, through `openid-client` (issue
 * 29); the started flow waits in `SignInFlows` (shared kv, one use per state).
 */
export class OidcSignIn {
  private readonly configurations = new Map<string, Promise<Oidc.Configuration>>();

  constructor(private readonly flows: SignInFlows) {}

  async start(provider: SignInProvider, audience: SignInAudience, redirectUri: string): Promise<{ url: string; state: string }> {
    const config = await this.configuration(provider);
    const oidc = await loadOidc();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    await this.flows.save(state, { provider: provider.name, audience, verifier, nonce });
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
    const pending = await this.flows.take(state, provider.name);
    const config = await this.configuration(provider);
    const oidc = await loadOidc();
    let claims: Record<string, unknown> | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims() as Record<string, unknown> | undefined;
    } catch (error) {
      throw refused(`The provider refused the sign-in (${error instanceof Error ? error.message : 'unknown error'}).`);
    }
    if (!claims || typeof claims.sub !== 'string') throw refused('The provider sent no subject.');
    return {
      audience: pending.audience,
      identity: {
        subject: claims.sub,
        email: typeof claims.email === 'string' ? claims.email.toLowerCase() : null,
        emailVerified: claims.email_verified === true,
      },
    };
  }

  /** Discovery once per provider and settings (a changed provider is discovered again). */
  private configuration(provider: SignInProvider): Promise<Oidc.Configuration> {
    const cacheKey = `${provider.name}|${provider.issuer}|${provider.clientId}|${provider.updatedAt}`;
    let found = this.configurations.get(cacheKey);
    if (!found) {
      // Plain HTTP only to an issuer on this machine (a lab Keycloak, the tests); anywhere else TLS.
      const insecure = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(provider.issuer);
      found = loadOidc().then((oidc) =>
        oidc.discovery(
          new URL(provider.issuer),
          provider.clientId,
          provider.clientSecret,
          undefined,
          insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
        ),
      );
      found.catch(() => this.configurations.delete(cacheKey));
      this.configurations.set(cacheKey, found);
    }
    return found;
  }
}
