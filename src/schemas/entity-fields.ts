import { z } from 'zod';
import { BILLING_MODES } from '../domain/billing-mode.ts';
import { GROUP_FEATURE_CLASSES } from '../domain/group.ts';
import { REGION_PATTERN, resolveChannelBaseUrl } from '../domain/channel-address.ts';
import { CHANNEL_KINDS } from '../domain/channel-kind.ts';
import {
  email,
  entityName,
  groupName,
  httpUrl,
  ipOrCidr,
  modelName,
  password,
  positiveUsd,
  priceMultiplier,
  secret,
  usd,
  usdPerMillion,
  wholeNumber,
} from './field-rules.ts';

/** An image size (`1024x1536`) or quality (`high`) as OpenAI names them, or `auto`. */
const imageTierName = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be a size such as 1024x1024 or a quality such as high');

/**
 * The fields of each thing an operator configures, one definition for the admin API and the
 * config file. Each entry point adds only what is its own (the config file's literal key
 * secret, the API's `quota` alias) and decides which fields are required.
 */

export const groupFields = {
  name: groupName,
  description: z.string().max(500, 'must be at most 500 characters').optional(),
  priceMultiplier: priceMultiplier.optional(),
  billing: z.enum(BILLING_MODES, { error: `must be one of ${BILLING_MODES.join(', ')}` }).optional(),
  allowedFeatures: z.array(z.enum(GROUP_FEATURE_CLASSES, { error: `must be one of ${GROUP_FEATURE_CLASSES.join(', ')}` })).optional(),
};

export const channelFields = {
  name: entityName,
  provider: z.enum(CHANNEL_KINDS, { error: `must be one of ${CHANNEL_KINDS.join(', ')}` }),
  /** Optional for vertex and bedrock, whose address follows from the region. */
  baseUrl: httpUrl.optional(),
  apiKey: secret.optional(),
  apiKeys: z.array(secret).min(1, 'needs at least one key').optional(),
  models: z.array(modelName).min(1, 'needs at least one model'),
  // Optional on create: toNewChannel defaults it to [default].
  groups: z.array(groupName).min(1, 'needs at least one group').optional(),
  modelMap: z.record(modelName, modelName).optional(),
  // Bounded to fit the PostgreSQL integer columns.
  priority: wholeNumber(-1_000_000, 1_000_000).optional(),
  weight: wholeNumber(0, 1_000_000).optional(),
  enabled: z.boolean().optional(),
  supportsResponses: z.boolean().optional(),
  allowedPrefixes: z.array(z.string().regex(/^[A-Za-z0-9_-]+$/, 'may contain letters, digits, "_" and "-" only')).optional(),
  /** Azure: the `api-version` query parameter. */
  apiVersion: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(-preview)?$|^(v1|preview|latest)$/, 'must look like 2024-10-21 or 2025-04-01-preview')
    .optional(),
  /** Vertex and Bedrock. */
  region: z.string().regex(REGION_PATTERN, 'must be a region name such as us-east-1 or europe-west4').max(64).optional(),
  /** Vertex: the Google Cloud project id. */
  project: z
    .string()
    .regex(/^[a-z][a-z0-9-]{4,61}[a-z0-9]$|^[a-z0-9.:-]{1,100}$/, 'must be a Google Cloud project id')
    .optional(),
};

type ChannelInput = { [K in keyof typeof channelFields]?: z.output<(typeof channelFields)[K]> };

/** A new channel: exactly one of apiKey/apiKeys (both would silently drop a secret), and an address. */
export function checkNewChannel(channel: ChannelInput, context: z.RefinementCtx): void {
  if (channel.apiKey === undefined && channel.apiKeys === undefined) {
    context.addIssue({ code: 'custom', path: ['apiKey'], message: 'is required: the upstream secret (apiKey, or apiKeys for several)' });
  }
  checkOneSecretField(channel, context);
  if (channel.provider === undefined) return;
  const address = resolveChannelBaseUrl({ ...channel, provider: channel.provider });
  if ('field' in address) context.addIssue({ code: 'custom', path: [address.field], message: address.message });
}

export function checkOneSecretField(channel: ChannelInput, context: z.RefinementCtx): void {
  if (channel.apiKey !== undefined && channel.apiKeys !== undefined) {
    context.addIssue({ code: 'custom', path: ['apiKeys'], message: 'give either apiKey or apiKeys, not both' });
  }
}

export const keyLimitsSchema = z.strictObject({
  requestsPerMinute: wholeNumber(1, 1_000_000_000).optional(),
  tokensPerMinute: wholeNumber(1, 1_000_000_000_000).optional(),
  concurrentRequests: wholeNumber(1, 1_000_000).optional(),
  dailySpend: usd.optional(),
  weeklySpend: usd.optional(),
  monthlySpend: usd.optional(),
});

/** The key fields both entry points share; the owner, group, expiry and secret are each entry point's own. */
export const keyFields = {
  name: entityName,
  // Unions (not .nullable()) so a wrong type is reported as "must be a number or null".
  /** USD; null = unlimited. */
  balance: z.union([usd, z.null()]).optional(),
  allowedModels: z.union([z.array(modelName), z.null()]).optional(),
  allowedIps: z.union([z.array(ipOrCidr), z.null()]).optional(),
  enabled: z.boolean().optional(),
  limits: keyLimitsSchema.optional(),
};

const priceTierSchema = z.strictObject({
  aboveInputTokens: wholeNumber(1, 100_000_000),
  input: usdPerMillion,
  output: usdPerMillion,
  cacheRead: usdPerMillion.optional(),
  cacheWrite: usdPerMillion.optional(),
  cacheWrite1h: usdPerMillion.optional(),
});

export const priceFields = {
  model: modelName,
  input: usdPerMillion,
  output: usdPerMillion,
  cacheRead: usdPerMillion.nullable().optional(),
  cacheWrite: usdPerMillion.nullable().optional(),
  /** USD per 1,000 web searches a provider's server tool ran (Anthropic, Responses); null or absent: not charged. */
  webSearch: usdPerMillion.nullable().optional(),
  /** USD per image: one figure, or `{ "<size>": { "<quality>": USD } }` (`auto` names the upstream's default). */
  perImage: z
    .union([usd, z.record(imageTierName, z.record(imageTierName, usd))])
    .nullable()
    .optional(),
  /** USD per million image tokens read (an edit's input images) and written, where the upstream reports them. */
  imageInput: usdPerMillion.nullable().optional(),
  imageOutput: usdPerMillion.nullable().optional(),
  /** USD per second of audio transcribed or translated (Whisper). */
  perSecond: usd.nullable().optional(),
  /** USD per million characters of speech input (text-to-speech). */
  perMillionCharacters: usdPerMillion.nullable().optional(),
  /** USD per million audio tokens read and written, where the upstream reports them (gpt-4o audio models). */
  audioInput: usdPerMillion.nullable().optional(),
  audioOutput: usdPerMillion.nullable().optional(),
  /** USD per rerank search unit (one query over up to 100 documents). */
  perSearchUnit: usd.nullable().optional(),
  /** USD per million cache writes kept one hour (Anthropic); absent: the cacheWrite price. */
  cacheWrite1h: usdPerMillion.nullable().optional(),
  /** USD per million reasoning tokens where priced apart from output; absent: billed as output. */
  reasoning: usdPerMillion.nullable().optional(),
  /** USD per request, on top of the tokens. */
  perRequest: usd.nullable().optional(),
  /** Long-context tiers: past `aboveInputTokens` input tokens the whole request is billed at the tier's rates. */
  tiers: z.array(priceTierSchema).max(8, 'at most 8 tiers').optional(),
  /** Served at zero and never refused as unpriced (an explicit choice, never a default). */
  free: z.boolean().optional(),
};

export const userFields = {
  name: entityName.regex(/^[A-Za-z0-9_.@-]+$/, 'may contain letters, digits, "_", "-", "." and "@" only'),
  email: email.nullable().optional(),
  /** null leaves the account without a password (no portal sign-in). */
  password: password.nullable().optional(),
  /** The wallet, USD. */
  balance: usd.optional(),
  enabled: z.boolean().optional(),
};

export const planQuotaSchema = z.strictObject({
  daily: positiveUsd.optional(),
  weekly: positiveUsd.optional(),
  monthly: positiveUsd.optional(),
  total: positiveUsd.optional(),
});

export const planFields = {
  name: entityName,
  group: groupName,
  durationDays: wholeNumber(1, 36_500),
  quota: planQuotaSchema,
  price: usd.nullable().optional(),
  description: z.string().max(1000, 'must be at most 1000 characters').optional(),
};
