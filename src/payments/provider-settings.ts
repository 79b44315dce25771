import { z } from 'zod';
import type { PaymentProviderName } from '../domain/order.ts';
import { httpUrl, secret } from '../schemas/field-rules.ts';
import type { StoredPaymentProvider } from '../store/payment-ports.ts';
import { createEpayProvider } from './epay-provider.ts';
import { createManualProvider } from './manual-provider.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { createStripeProvider } from './stripe-provider.ts';

const currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code such as usd or cny')
  .transform((value) => value.toLowerCase());

/** PATCH bodies: every field optional; a secret left out keeps the stored one. */
export const PROVIDER_SETTINGS_SCHEMAS = {
  stripe: z.strictObject({
    enabled: z.boolean().optional(),
    secretKey: secret.optional(),
    webhookSecret: secret.optional(),
    apiBase: httpUrl.nullable().optional(),
    currency: currency.optional(),
  }),
  epay: z.strictObject({
    enabled: z.boolean().optional(),
    pid: z.string().trim().min(1).max(64).optional(),
    key: secret.optional(),
    apiBase: httpUrl.optional(),
    currency: currency.optional(),
    payType: z
      .string()
      .regex(/^[a-z0-9_]{1,20}$/, 'must be an Epay payment type such as alipay or wxpay')
      .optional(),
  }),
  manual: z.strictObject({
    enabled: z.boolean().optional(),
    currency: currency.optional(),
    instructions: z.string().max(2_000).optional(),
  }),
} as const;

const SECRET_FIELDS: Record<PaymentProviderName, readonly string[]> = { stripe: ['secretKey', 'webhookSecret'], epay: ['key'], manual: [] };
const REQUIRED_TO_ENABLE: Record<PaymentProviderName, readonly string[]> = {
  stripe: ['secretKey', 'webhookSecret'],
  epay: ['pid', 'key', 'apiBase'],
  manual: [],
};
const DEFAULT_CURRENCY: Record<PaymentProviderName, string> = { stripe: 'usd', epay: 'cny', manual: 'usd' };

/** Applies a PATCH to the stored settings; returns the new record, or the field an enabled provider lacks. */
export function mergeProviderSettings(
  name: PaymentProviderName,
  current: StoredPaymentProvider | undefined,
  patch: Record<string, unknown>,
): { provider: Omit<StoredPaymentProvider, 'updatedAt'> } | { missing: string } {
  const settings: Record<string, unknown> = { ...(current?.settings ?? {}) };
  const secrets: Record<string, string> = { ...(current?.secrets ?? {}) };
  for (const [field, value] of Object.entries(patch)) {
    if (field === 'enabled' || value === undefined) continue;
    if (SECRET_FIELDS[name].includes(field)) secrets[field] = value as string;
    else if (value === null) delete settings[field];
    else settings[field] = value;
  }
  const enabled = (patch.enabled as boolean | undefined) ?? current?.enabled ?? false;
  const missing = enabled ? REQUIRED_TO_ENABLE[name].find((field) => settings[field] === undefined && secrets[field] === undefined) : undefined;
  if (missing !== undefined) return { missing };
  return { provider: { name, enabled, settings, secrets } };
}

/** The view `GET /api/admin/payment-providers` returns: settings, secrets masked (set or not, last four characters). */
export function providerView(name: PaymentProviderName, stored: StoredPaymentProvider | undefined): Record<string, unknown> {
  const view: Record<string, unknown> = { name, enabled: stored?.enabled ?? false, currency: DEFAULT_CURRENCY[name], ...(stored?.settings ?? {}) };
  for (const field of SECRET_FIELDS[name]) {
    const value = stored?.secrets[field];
    view[field] = value === undefined ? null : maskSecret(value);
  }
  return view;
}

export function maskSecret(value: string): string {
  return value.length >= 12 ? `…${value.slice(-4)}` : '…';
}

/** The working provider for stored settings, or undefined when it is not enabled. */
export function openPaymentProvider(stored: StoredPaymentProvider | undefined, now: () => number): PaymentProvider | undefined {
  if (!stored?.enabled) return undefined;
  const name = stored.name as PaymentProviderName;
  const text = (field: string) => (typeof stored.settings[field] === 'string' ? (stored.settings[field] as string) : undefined);
  const chosenCurrency = text('currency') ?? DEFAULT_CURRENCY[name];
  if (name === 'stripe') {
    return createStripeProvider(
      { secretKey: stored.secrets.secretKey ?? '', webhookSecret: stored.secrets.webhookSecret ?? '', apiBase: text('apiBase'), currency: chosenCurrency },
      now,
    );
  }
  if (name === 'epay') {
    return createEpayProvider({
      pid: text('pid') ?? '',
      key: stored.secrets.key ?? '',
      apiBase: text('apiBase') ?? '',
      currency: chosenCurrency,
      payType: text('payType') ?? 'alipay',
    });
  }
  return createManualProvider(chosenCurrency);
}
