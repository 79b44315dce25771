import { GatewayError } from '../core/gateway-error.ts';
import type { Admin } from '../domain/admin.ts';
import type { SignInAudience } from '../domain/identity.ts';
import type { User } from '../domain/user.ts';
import type { Store } from '../store/store.ts';
import type { ExternalIdentity } from './oidc-sign-in.ts';

/**
 * Who a provider's identity signs in as: the account holder (portal) or admin (console) with the
 * same e-mail, and only when the provider says the e-mail is verified. An unverified or missing
 * e-mail links nothing: anyone can type any address into an account at some provider.
 */
export async function linkExternalIdentity(
  store: Store,
  audience: SignInAudience,
  identity: ExternalIdentity,
): Promise<{ kind: 'user'; user: User } | { kind: 'admin'; admin: Admin }> {
  if (!identity.email || !identity.emailVerified) {
    throw new GatewayError(
      'sign_in_failed',
      'The provider did not confirm that your e-mail address is verified, so it cannot sign you in here; verify it at the provider first.',
    );
  }
  const email = identity.email;
  if (audience === 'console') {
    const admin = await store.admins.find(email);
    if (!admin || admin.email !== email || !admin.enabled)
      throw new GatewayError('sign_in_failed', `No enabled admin has the e-mail ${email}; an owner adds admins.`);
    return { kind: 'admin', admin };
  }
  const user = (await store.users.list()).find((entry) => entry.email?.toLowerCase() === email);
  if (!user || !user.enabled) throw new GatewayError('sign_in_failed', `No enabled account has the e-mail ${email}; sign up first or ask the operator.`);
  return { kind: 'user', user };
}
