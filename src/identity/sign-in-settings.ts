import { GatewayError } from '../core/gateway-error.ts';
import type { SettingsRepository } from '../store/store.ts';

const SETTING = 'identity.sign-in';

/** The owner's sign-in rules (issue 29); `PATCH /api/admin/sign-in-settings`. */
export interface SignInSettings {
  /** Every admin must have TOTP: one without it may only enrol (and sign out) until they do. */
  requireAdminTotp: boolean;
  /** "OIDC only": password and passkey sign-in (portal and console) and self sign-up are off; people sign in through a provider. */
  oidcOnly: boolean;
}

export const DEFAULT_SIGN_IN_SETTINGS: SignInSettings = { requireAdminTotp: false, oidcOnly: false };

export async function readSignInSettings(settings: SettingsRepository): Promise<SignInSettings> {
  const value = await settings.get(SETTING);
  if (value === undefined) return DEFAULT_SIGN_IN_SETTINGS;
  return { ...DEFAULT_SIGN_IN_SETTINGS, ...(JSON.parse(value) as Partial<SignInSettings>) };
}

export async function writeSignInSettings(settings: SettingsRepository, next: SignInSettings): Promise<void> {
  await settings.set(SETTING, JSON.stringify(next));
}

/** Passkeys sign no one in under "OIDC only": the provider alone decides who may enter (one removed there stays out). */
export async function refuseWhenOidcOnly(settings: SettingsRepository): Promise<void> {
  if ((await readSignInSettings(settings)).oidcOnly) {
    throw new GatewayError(
      'sign_in_method_disabled',
      'Passkey sign-in is off on this gateway (OIDC only): sign in with one of the providers on the sign-in page.',
    );
  }
}
