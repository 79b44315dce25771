import { z } from 'zod';
import { BILLING_MODES } from '../domain/billing-mode.ts';
import { REGION_PATTERN, resolveChannelBaseUrl } from '../domain/channel-address.ts';
import { CHANNEL_KINDS } from '../domain/channel-kind.ts';
import { MAX_PRICE_MULTIPLIER, MAX_PRICE_USD_PER_MILLION, MAX_USD_AMOUNT } from '../billing/money-bounds.ts';
import { isIpOrCidr } from './is-ip-or-cidr.ts';

// Messages are written for the operator editing the YAML: they follow "<path>: ".
const name = z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' });
const text = z.string({ error: 'must be a string' });
const names = z.array(name, { error: 'must be a list of names' });
const bool = z.boolean({ error: 'must be true or false' });
const integer = (min: number) =>
  z.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).min(min, { error: `must be at least ${min}` });
const usd = z
  .number({ error: 'must be a number of USD' })
  .nonnegative({ error: 'must not be negative' })
  .max(MAX_USD_AMOUNT, { error: `must be at most ${MAX_USD_AMOUNT} USD` });
const usdPerMillion = z
  .number({ error: 'must be a number of USD per million tokens' })
  .nonnegative({ error: 'must not be negative' })
  .max(MAX_PRICE_USD_PER_MILLION, { error: `must be at most ${MAX_PRICE_USD_PER_MILLION} USD per million tokens` });

const httpUrl = text.refine(
  (value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  },
  { error: 'must be an http(s) URL' },
);

// A datetime must carry its zone so the same file means the same instant on every host.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
const isoDate = text
  .refine((value) => ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)), {
    error: 'must be an ISO date such as 2026-12-31 or 2026-12-31T23:59:59Z',
  })
  .transform((value) => Date.parse(value));

export const configGroupSchema = z.strictObject({
  name,
  description: text.optional(),
  priceMultiplier: z
    .number({ error: 'must be a number' })
    .nonnegative({ error: 'must not be negative' })
    .max(MAX_PRICE_MULTIPLIER, { error: `must be at most ${MAX_PRICE_MULTIPLIER}` })
    .optional(),
  billing: z.enum(BILLING_MODES, { error: `must be one of ${BILLING_MODES.join(', ')}` }).optional(),
});

export const configUserSchema = z.strictObject({
  name,
  email: text.nullable().optional(),
  password: text.min(8, { error: 'must be at least 8 characters long' }).optional(),
  /** The wallet, set when the user is created or when this value changes in the file. */
  balance: usd.optional(),
  enabled: bool.optional(),
});

const positiveUsd = usd.refine((value) => value > 0, { error: 'must be greater than 0' });

export const configPlanSchema = z.strictObject({
  name,
  group: name,
  durationDays: integer(1),
  quota: z
    .strictObject({ daily: positiveUsd.optional(), weekly: positiveUsd.optional(), monthly: positiveUsd.optional(), total: positiveUsd.optional() })
    .optional(),
  price: usd.nullable().optional(),
  description: text.optional(),
});

export const configSubscriptionSchema = z.strictObject({
  user: name,
  plan: name,
  startsAt: isoDate.optional(),
  expiresAt: isoDate.optional(),
});

export const configChannelSchema = z
  .strictObject({
    name,
    provider: z.enum(CHANNEL_KINDS, { error: `must be one of ${CHANNEL_KINDS.join(', ')}` }),
    /** Optional for vertex and bedrock (derived from the region). */
    baseUrl: httpUrl.optional(),
    apiVersion: name.optional(),
    region: name.regex(REGION_PATTERN, { error: 'must be a region name such as us-east-1' }).optional(),
    project: name.optional(),
    apiKey: name.optional(),
    apiKeys: z.array(name, { error: 'must be a list of secrets' }).min(1, { error: 'must not be empty' }).optional(),
    models: names.min(1, { error: 'must list at least one model' }),
    groups: names.optional(),
    modelMap: z.record(z.string(), name, { error: 'must map public model names to upstream names' }).optional(),
    priority: integer(-1_000_000).optional(),
    weight: integer(0).optional(),
    enabled: bool.optional(),
    supportsResponses: bool.optional(),
    allowedPrefixes: names.optional(),
  })
  .superRefine((channel, context) => {
    if ((channel.apiKey === undefined) === (channel.apiKeys === undefined)) {
      context.addIssue({ code: 'custom', path: ['apiKey'], message: 'give exactly one of apiKey or apiKeys' });
    }
    const address = resolveChannelBaseUrl(channel);
    if ('field' in address) context.addIssue({ code: 'custom', path: [address.field], message: address.message });
  });

export const configKeySchema = z.strictObject({
  name,
  group: name.optional(),
  key: text.refine((value) => value.startsWith('sk-') && value.length >= 20, {
    error: 'must start with "sk-" and be at least 20 characters',
  }),
  expiresAt: isoDate.nullable().optional(),
  balance: usd.nullable().optional(),
  allowedModels: names.nullable().optional(),
  allowedIps: z
    .array(text.refine(isIpOrCidr, { error: 'must be an IP address or CIDR' }), { error: 'must be a list' })
    .nullable()
    .optional(),
  enabled: bool.optional(),
  /** The owning user, by name (from this file or the store). */
  user: name.optional(),
  limits: z
    .strictObject({
      requestsPerMinute: integer(1).optional(),
      tokensPerMinute: integer(1).optional(),
      concurrentRequests: integer(1).optional(),
      dailySpend: usd.optional(),
      weeklySpend: usd.optional(),
      monthlySpend: usd.optional(),
    })
    .optional(),
});

export const configPriceSchema = z.strictObject({
  model: name,
  input: usdPerMillion,
  output: usdPerMillion,
  cacheRead: usdPerMillion.nullable().optional(),
  cacheWrite: usdPerMillion.nullable().optional(),
});

export const configFileSchema = z
  .strictObject({
    groups: z.array(configGroupSchema, { error: 'must be a list' }).optional(),
    channels: z.array(configChannelSchema, { error: 'must be a list' }).optional(),
    keys: z.array(configKeySchema, { error: 'must be a list' }).optional(),
    prices: z.array(configPriceSchema, { error: 'must be a list' }).optional(),
    users: z.array(configUserSchema, { error: 'must be a list' }).optional(),
    plans: z.array(configPlanSchema, { error: 'must be a list' }).optional(),
    subscriptions: z.array(configSubscriptionSchema, { error: 'must be a list' }).optional(),
  })
  .superRefine((file, context) => {
    const unique = (kind: string, list: Array<Record<string, unknown>> | undefined, field: string) => {
      const seen = new Set<unknown>();
      list?.forEach((entry, index) => {
        const value = entry[field];
        if (seen.has(value)) {
          const shown = field === 'key' ? '' : ` ${JSON.stringify(value)}`;
          context.addIssue({ code: 'custom', path: [kind, index, field], message: `duplicate ${field}${shown}` });
        }
        seen.add(value);
      });
    };
    unique('groups', file.groups, 'name');
    unique('channels', file.channels, 'name');
    unique('keys', file.keys, 'name');
    unique('keys', file.keys, 'key');
    unique('prices', file.prices, 'model');
    unique('users', file.users, 'name');
    unique('plans', file.plans, 'name');
  });

export type ConfigFile = z.output<typeof configFileSchema>;
export type ConfigFileChannel = z.output<typeof configChannelSchema>;
export type ConfigFileKey = z.output<typeof configKeySchema>;
export type ConfigFileUser = z.output<typeof configUserSchema>;
export type ConfigFilePlan = z.output<typeof configPlanSchema>;
export type ConfigFileSubscription = z.output<typeof configSubscriptionSchema>;
