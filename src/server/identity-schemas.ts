import { z } from 'zod';
import { CAPTCHA_PROVIDERS } from '../identity/sign-up-settings.ts';
import { httpUrl, secret, usd, wholeNumber } from '../schemas/field-rules.ts';

/** The bodies of the sign-in and sign-up settings (issue 29), shared with the OpenAPI description. */
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain such as example.com');

/** `signUp` of `PATCH /api/admin/account-settings`: every field optional, the rest kept. */
export const signUpSettingsSchema = z
  .strictObject({
    enabled: z.boolean(),
    emailDomains: z.array(domain).max(200),
    captcha: z.strictObject({ provider: z.enum(CAPTCHA_PROVIDERS), secret, verifyUrl: httpUrl.nullable().optional() }).nullable(),
    initialCredit: usd,
  })
  .partial();

export const smtpSettingsSchema = z.strictObject({
  host: z.string().trim().min(1).max(253),
  port: wholeNumber(1, 65_535),
  secure: z.boolean(),
  user: z.string().max(320).nullable().optional(),
  /** Omitted: the stored password is kept (it is never shown back). */
  password: z.string().max(1024).nullable().optional(),
  from: z.string().trim().min(3).max(320),
});

export const signInProviderSchema = z.strictObject({
  type: z.enum(['oidc', 'github']),
  name: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .regex(/^[a-z0-9-]+$/, 'may contain lower-case letters, digits and "-" only (it is part of the callback URL)'),
  issuer: httpUrl,
  clientId: z.string().trim().min(1).max(500),
  clientSecret: secret,
  audiences: z
    .array(z.enum(['portal', 'console']))
    .min(1)
    .max(2),
  apiBase: httpUrl.nullable().optional(),
});
