import { z } from 'zod';
import { BILLING_MODES } from '../../domain/billing-mode.ts';
import { CHANNEL_KINDS } from '../../domain/channel-kind.ts';
import { MAX_PRICE_MULTIPLIER, MAX_PRICE_USD_PER_MILLION, MAX_USD_AMOUNT } from '../../billing/money-bounds.ts';
import { isIpOrCidr } from '../../config/is-ip-or-cidr.ts';
import { REGION_PATTERN, resolveChannelBaseUrl } from '../../domain/channel-address.ts';

const name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const httpUrl = z
  .string()
  .url('must be an http(s) URL')
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL');
const modelName = z.string().min(1, 'must not be empty').max(200);
// Bounded so micro-USD stays a safe integer and fits a PostgreSQL bigint.
const usd = z.number().finite().nonnegative('must not be negative').max(MAX_USD_AMOUNT, `must be at most ${MAX_USD_AMOUNT} (USD)`);
// Per million tokens; bounded so a price times any request stays an exact, finite charge.
const usdPerMillion = z
  .number()
  .finite()
  .nonnegative('must not be negative')
  .max(MAX_PRICE_USD_PER_MILLION, `must be at most ${MAX_PRICE_USD_PER_MILLION} (USD per million tokens)`);
const isoDateTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a zone, e.g. 2030-01-01T00:00:00Z' });
const ipOrCidr = z
  .string()
  .refine(isIpOrCidr, {
    error: (issue) => `must be an IP address or CIDR (e.g. 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32), not ${JSON.stringify(issue.input)}`,
  });

export const groupCreateSchema = z.strictObject({
  name: name.regex(/^[A-Za-z0-9_.-]+$/, 'may contain letters, digits, "_", "-" and "." only'),
  description: z.string().max(500).optional(),
  priceMultiplier: z
    .number()
    .finite()
    .positive('must be greater than 0')
    .max(MAX_PRICE_MULTIPLIER, `must be at most ${MAX_PRICE_MULTIPLIER}`)
    .optional(),
  billing: z.enum(BILLING_MODES, { error: `must be one of ${BILLING_MODES.join(', ')}` }).optional(),
});

export const groupPatchSchema = groupCreateSchema.omit({ name: true }).partial();

const channelFields = {
  name,
  provider: z.enum(CHANNEL_KINDS, { error: `must be one of ${CHANNEL_KINDS.join(', ')}` }),
  /** Optional for vertex and bedrock, whose address follows from the region. */
  baseUrl: httpUrl.optional(),
  apiKey: z.string().min(1, 'must not be empty').optional(),
  apiKeys: z.array(z.string().min(1)).min(1, 'needs at least one key').optional(),
  models: z.array(modelName).min(1, 'needs at least one model'),
  // Optional on create, as in the config file: toNewChannel defaults it to [default].
  groups: z.array(name).min(1, 'needs at least one group').optional(),
  modelMap: z.record(modelName, modelName).optional(),
  // Bounded to fit the PostgreSQL integer columns.
  priority: z.number().int('must be an integer').min(-1_000_000).max(1_000_000).optional(),
  weight: z.number().int('must be an integer').min(0, 'must not be negative').max(1_000_000).optional(),
  enabled: z.boolean().optional(),
  supportsResponses: z.boolean().optional(),
  allowedPrefixes: z.array(z.string().regex(/^[A-Za-z0-9_-]+$/)).optional(),
  /** Azure: the `api-version` query parameter. */
  apiVersion: z.string().regex(/^\d{4}-\d{2}-\d{2}(-preview)?$|^(v1|preview|latest)$/, 'must look like 2024-10-21 or 2025-04-01-preview').optional(),
  /** Vertex and Bedrock. */
  region: z.string().regex(REGION_PATTERN, 'must be a region name such as us-east-1 or europe-west4').max(64).optional(),
  /** Vertex: the Google Cloud project id. */
  project: z.string().regex(/^[a-z][a-z0-9-]{4,61}[a-z0-9]$|^[a-z0-9.:-]{1,100}$/, 'must be a Google Cloud project id').optional(),
};

// Both at once would silently drop one of the secrets.
const notBothSecrets = {
  message: 'give either apiKey or apiKeys, not both',
  path: ['apiKeys'],
};

export const channelCreateSchema = z
  .strictObject(channelFields)
  .refine((value) => value.apiKey !== undefined || value.apiKeys !== undefined, {
    message: 'is required: the upstream secret (apiKey, or apiKeys for several)',
    path: ['apiKey'],
  })
  .refine((value) => value.apiKey === undefined || value.apiKeys === undefined, notBothSecrets)
  .superRefine((value, context) => {
    const resolved = resolveChannelBaseUrl(value);
    if ('field' in resolved) context.addIssue({ code: 'custom', path: [resolved.field], message: resolved.message });
  });

export const channelPatchSchema = z
  .strictObject(channelFields)
  .partial()
  .refine((value) => value.apiKey === undefined || value.apiKeys === undefined, notBothSecrets);

const limitsSchema = z.strictObject({
  requestsPerMinute: z.number().int().positive().optional(),
  tokensPerMinute: z.number().int().positive().optional(),
  concurrentRequests: z.number().int().positive().optional(),
  dailySpend: usd.optional(),
  weeklySpend: usd.optional(),
  monthlySpend: usd.optional(),
});

const keyFields = {
  name,
  group: name,
  expiresAt: z.union([isoDateTime, z.number().int().positive(), z.null()]).optional(),
  /** USD; null = unlimited. `quota` is accepted as another name for it. */
  balance: z.union([usd, z.null()]).optional(),
  quota: z.union([usd, z.null()]).optional(),
  allowedModels: z.union([z.array(modelName), z.null()]).optional(),
  allowedIps: z.union([z.array(ipOrCidr), z.null()]).optional(),
  enabled: z.boolean().optional(),
  limits: limitsSchema.optional(),
  /** The owning user (id or name); null detaches the key. */
  user: z.union([name, z.null()]).optional(),
};

export const keyCreateSchema = z.strictObject(keyFields);
export const keyPatchSchema = z.strictObject(keyFields).partial();

export const priceSchema = z.strictObject({
  model: modelName,
  input: usdPerMillion,
  output: usdPerMillion,
  cacheRead: usdPerMillion.nullable().optional(),
  cacheWrite: usdPerMillion.nullable().optional(),
});

export const logQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  key: z.string().optional(),
  group: z.string().optional(),
  model: z.string().optional(),
  channel: z.string().optional(),
  status: z.coerce.number().int().optional(),
  from: z.union([isoDateTime, z.coerce.number().int()]).optional(),
  to: z.union([isoDateTime, z.coerce.number().int()]).optional(),
  /** The `next` cursor of the previous page: `<epoch ms>.<request id>`. */
  cursor: z
    .string()
    .regex(/^\d{1,16}\.[\w-]{1,100}$/, 'expected the "next" value of the previous page')
    .optional(),
});

export const auditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  kind: z.enum(['group', 'channel', 'key', 'price']).optional(),
  target: z.string().max(200).optional(),
  cursor: z.string().max(100).optional(),
});

export const channelTestSchema = z.strictObject({ model: modelName.optional() });

// Accounts (issue 15)
const email = z.string().trim().email('must be an email address').max(320);
const password = z.string().min(8, 'must be at least 8 characters long').max(1024, 'must be at most 1024 characters long');
// A signed top-up; bounded like every other amount.
const usdDelta = z.number().finite().min(-1_000_000_000, 'must be at least -1000000000 (USD)').max(1_000_000_000, 'must be at most 1000000000 (USD)');
const dateTime = z.union([isoDateTime, z.number().int().positive()]);

export const userCreateSchema = z.strictObject({
  name: name.regex(/^[A-Za-z0-9_.@-]+$/, 'may contain letters, digits, "_", "-", "." and "@" only'),
  email: z.union([email, z.null()]).optional(),
  password: z.union([password, z.null()]).optional(),
  balance: usd.optional(),
  enabled: z.boolean().optional(),
});

export const userPatchSchema = userCreateSchema
  .partial()
  .extend({ balanceDelta: usdDelta.optional() })
  .refine((value) => value.balance === undefined || value.balanceDelta === undefined, {
    message: 'give either balance (the new amount) or balanceDelta (a top-up), not both',
    path: ['balanceDelta'],
  });

const quotaSchema = z.strictObject({
  daily: usd.positive('must be greater than 0').optional(),
  weekly: usd.positive('must be greater than 0').optional(),
  monthly: usd.positive('must be greater than 0').optional(),
  total: usd.positive('must be greater than 0').optional(),
});

export const planCreateSchema = z.strictObject({
  name,
  group: name,
  durationDays: z.number().int('must be an integer').min(1).max(36_500),
  quota: quotaSchema,
  price: z.union([usd, z.null()]).optional(),
  description: z.string().max(1000).optional(),
});

export const planPatchSchema = planCreateSchema.partial();

export const subscriptionCreateSchema = z.strictObject({
  user: name,
  plan: name,
  startsAt: dateTime.optional(),
  expiresAt: dateTime.optional(),
});

export const subscriptionPatchSchema = z.strictObject({
  status: z.enum(['suspended', 'active'], { error: 'must be "suspended" or "active"' }).optional(),
  expiresAt: dateTime.optional(),
});

export const subscriptionQuerySchema = z.object({
  user: z.string().optional(),
  status: z.enum(['active', 'suspended', 'expired'], { error: 'must be active, suspended or expired' }).optional(),
});

const codeCommon = {
  count: z.number().int('must be an integer').min(1).max(1000).optional(),
  expiresAt: z.union([isoDateTime, z.number().int().positive(), z.null()]).optional(),
};

export const redemptionCodeCreateSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('balance'), amount: usd.positive('must be greater than 0'), ...codeCommon }),
    z.strictObject({ kind: z.literal('subscription'), plan: name, ...codeCommon }),
  ],
  { error: 'kind must be "balance" or "subscription"' },
);

export const redeemSchema = z.strictObject({ code: z.string().trim().min(1, 'must not be empty').max(200) });
