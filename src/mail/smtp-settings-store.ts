import type { IdentityRepository, SettingsRepository } from '../store/store.ts';
import { createSmtpMailer, type Mailer, type SmtpSettings } from './mailer.ts';

const SETTING = 'mail.smtp';
const PASSWORD_SETTING = 'mail.smtp.password';

/** The SMTP settings: the password sealed with the gateway secret, the rest as JSON beside it. */
export async function readSmtpSettings(store: { settings: SettingsRepository; identity: IdentityRepository }): Promise<SmtpSettings | undefined> {
  const value = await store.settings.get(SETTING);
  if (value === undefined) return undefined;
  const fields = JSON.parse(value) as Omit<SmtpSettings, 'password'>;
  return { ...fields, password: (await store.identity.getSealedSetting(PASSWORD_SETTING)) || null };
}

/** `password: undefined` keeps the stored one (the API never shows it back, so a form cannot resend it). */
export async function writeSmtpSettings(
  store: { settings: SettingsRepository; identity: IdentityRepository },
  settings: Omit<SmtpSettings, 'password'> & { password?: string | null },
): Promise<void> {
  const { password, ...fields } = settings;
  await store.settings.set(SETTING, JSON.stringify(fields));
  if (password !== undefined) await store.identity.setSealedSetting(PASSWORD_SETTING, password ?? '');
}

/** The gateway's Mailer: the one other modules take (`deps.store` is enough to build it). */
export function createStoreMailer(store: { settings: SettingsRepository; identity: IdentityRepository }): Mailer {
  return createSmtpMailer(() => readSmtpSettings(store));
}
