import { GatewayError } from '../core/gateway-error.ts';
import type { IdentityOwner } from '../domain/identity.ts';
import type { Store } from '../store/store.ts';
import { readSignInSettings } from './sign-in-settings.ts';
import { TotpFactors } from './totp-factors.ts';

/**
 * The second step of a password sign-in: with a confirmed TOTP factor, `totp` must hold a
 * current code or a recovery code. Called only after the password matched, so the answer
 * `totp_required` tells nothing to someone without the password.
 */
export async function requireSecondFactor(
  factors: TotpFactors,
  owner: IdentityOwner,
  totp: string | undefined,
  /** The sign-in throttle's places: given back when the code is merely missing (the password was right). */
  attempt: { release(): Promise<void> },
): Promise<void> {
  const outcome = await factors.check(owner, totp);
  if (outcome === 'missing') {
    await attempt.release();
    throw new GatewayError('totp_required', 'This account has two-factor sign-in: send the code your authenticator shows (or a recovery code) in "totp".');
  }
  if (outcome === 'failed') {
    throw new GatewayError('sign_in_failed', 'That two-factor code is wrong, was already used, or the recovery code was spent.');
  }
}

/** After the password matched: passwords must be allowed ("OIDC only" is off) and the second factor must pass. */
export async function requirePasswordSignIn(
  store: Store,
  now: () => number,
  owner: IdentityOwner,
  totp: string | undefined,
  attempt: { release(): Promise<void> },
): Promise<void> {
  if ((await readSignInSettings(store.settings)).oidcOnly) {
    throw new GatewayError(
      'sign_in_method_disabled',
      'Password sign-in is off on this gateway (OIDC only): sign in with one of the providers on the sign-in page.',
    );
  }
  await requireSecondFactor(new TotpFactors(store.identity, now), owner, totp, attempt);
}
