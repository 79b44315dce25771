import { microsToUsd, usdToMicros } from '../domain/money.ts';
import type { IdentityRepository, SettingsRepository } from '../store/store.ts';

const SETTING = 'identity.sign-up';
const CAPTCHA_SECRET = 'identity.sign-up.captcha-secret';

export const CAPTCHA_PROVIDERS = ['turnstile', 'hcaptcha'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

export interface CaptchaSettings {
  provider: CaptchaProvider;
  /** The site's secret key, sealed at rest; never shown back. */
  secret: string;
  /** The siteverify endpoint; null: the provider's own (tests and self-hosted proxies override it). */
  verifyUrl: string | null;
}

/** Self sign-up (issue 29), off by default; `signUp` in `PATCH /api/admin/account-settings`. */
export interface SignUpSettings {
  enabled: boolean;
  /** E-mail domains allowed to sign up (lower case); empty: any domain. */
  emailDomains: string[];
  captcha: CaptchaSettings | null;
  /** Wallet credit a new account starts with, micro-USD; 0 unless the operator sets it. */
  initialCreditMicros: number;
}

export const DEFAULT_SIGN_UP_SETTINGS: SignUpSettings = { enabled: false, emailDomains: [], captcha: null, initialCreditMicros: 0 };

type Stores = { settings: SettingsRepository; identity: IdentityRepository };

export async function readSignUpSettings(store: Stores): Promise<SignUpSettings> {
  const value = await store.settings.get(SETTING);
  if (value === undefined) return DEFAULT_SIGN_UP_SETTINGS;
  const stored = JSON.parse(value) as Omit<SignUpSettings, 'captcha'> & { captcha: Omit<CaptchaSettings, 'secret'> | null };
  const secret = stored.captcha ? await store.identity.getSealedSetting(CAPTCHA_SECRET) : undefined;
  return { ...DEFAULT_SIGN_UP_SETTINGS, ...stored, captcha: stored.captcha && secret ? { ...stored.captcha, secret } : null };
}

export async function writeSignUpSettings(store: Stores, next: SignUpSettings): Promise<void> {
  const { captcha, ...rest } = next;
  if (captcha) await store.identity.setSealedSetting(CAPTCHA_SECRET, captcha.secret);
  await store.settings.set(SETTING, JSON.stringify({ ...rest, captcha: captcha ? { provider: captcha.provider, verifyUrl: captcha.verifyUrl } : null }));
}

/** What the admin API shows: the captcha's secret never leaves the store. */
export function signUpSettingsView(settings: SignUpSettings) {
  return {
    enabled: settings.enabled,
    emailDomains: settings.emailDomains,
    captcha: settings.captcha ? { provider: settings.captcha.provider, verifyUrl: settings.captcha.verifyUrl, secretSet: true } : null,
    initialCredit: microsToUsd(settings.initialCreditMicros),
  };
}

/** What `signUp` of `PATCH /api/admin/account-settings` may say; absent fields keep their value. */
export interface SignUpSettingsPatch {
  enabled?: boolean | undefined;
  emailDomains?: string[] | undefined;
  captcha?: { provider: CaptchaProvider; secret: string; verifyUrl?: string | null | undefined } | null | undefined;
  /** USD. */
  initialCredit?: number | undefined;
}

export async function patchSignUpSettings(store: Stores, patch: SignUpSettingsPatch): Promise<SignUpSettings> {
  const current = await readSignUpSettings(store);
  const next: SignUpSettings = {
    enabled: patch.enabled ?? current.enabled,
    emailDomains: patch.emailDomains ? [...new Set(patch.emailDomains)] : current.emailDomains,
    captcha:
      patch.captcha === undefined
        ? current.captcha
        : patch.captcha && { provider: patch.captcha.provider, secret: patch.captcha.secret, verifyUrl: patch.captcha.verifyUrl ?? null },
    initialCreditMicros: patch.initialCredit === undefined ? current.initialCreditMicros : usdToMicros(patch.initialCredit),
  };
  await writeSignUpSettings(store, next);
  return next;
}
