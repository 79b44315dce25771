import { z } from 'zod';
import {
  channelFields,
  checkNewChannel,
  checkOneSecretField,
  groupFields,
  keyFields,
  planFields,
  priceFields,
  userFields,
} from '../../schemas/entity-fields.ts';
import { entityName, instant, instantParam, modelName, positiveUsd, usdChange, wholeNumber } from '../../schemas/field-rules.ts';

/**
 * The admin API's bodies and queries. The fields themselves are defined once in
 * src/schemas/ (shared with the config file); this file says which are required where.
 */

export const groupCreateSchema = z.strictObject(groupFields);

/** `name` renames the group: its keys, channels and plans follow. */
export const groupPatchSchema = groupCreateSchema.partial();

export const channelCreateSchema = z.strictObject(channelFields).superRefine(checkNewChannel);

export const channelPatchSchema = z.strictObject(channelFields).partial().superRefine(checkOneSecretField);

const adminKeyFields = {
  ...keyFields,
  group: entityName,
  expiresAt: instant.nullable().optional(),
  /** Another name for `balance`. */
  quota: keyFields.balance,
  /** The owning user (id or name); null detaches the key. */
  user: entityName.nullable().optional(),
};

export const keyCreateSchema = z.strictObject(adminKeyFields);
export const keyPatchSchema = z.strictObject(adminKeyFields).partial();

export const priceSchema = z.strictObject({ ...priceFields, effectiveFrom: instant.optional() });

export const logQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  key: z.string().optional(),
  group: z.string().optional(),
  model: z.string().optional(),
  channel: z.string().optional(),
  status: z.coerce.number().int().optional(),
  from: instantParam.optional(),
  to: instantParam.optional(),
  /** The `next` cursor of the previous page: `<epoch ms>.<request id>`. */
  cursor: z
    .string()
    .regex(/^\d{1,16}\.[\w-]{1,100}$/, 'expected the "next" value of the previous page')
    .optional(),
});

/** The logs page's filters without its paging: the export is every matching row. */
export const logExportQuerySchema = logQuerySchema.omit({ limit: true, cursor: true });

export const auditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  kind: z.enum(['group', 'channel', 'key', 'price', 'admin', 'admin-token']).optional(),
  target: z.string().max(200).optional(),
  cursor: z.string().max(100).optional(),
});

export const channelTestSchema = z.strictObject({ model: modelName.optional() });

// Accounts
export const userCreateSchema = z.strictObject({
  ...userFields,
  /** The inviter's invite code (issue 28): the new account belongs to that inviter. */
  referralCode: z.string().trim().min(1).max(64).optional(),
});

export const userPatchSchema = userCreateSchema
  .omit({ referralCode: true })
  .partial()
  .extend({ balanceDelta: usdChange.optional() })
  .refine((value) => value.balance === undefined || value.balanceDelta === undefined, {
    message: 'give either balance (the new amount) or balanceDelta (a top-up), not both',
    path: ['balanceDelta'],
  });

export const planCreateSchema = z.strictObject(planFields);

export const planPatchSchema = planCreateSchema.partial();

export const subscriptionCreateSchema = z.strictObject({
  user: entityName,
  plan: entityName,
  startsAt: instant.optional(),
  expiresAt: instant.optional(),
});

export const subscriptionPatchSchema = z.strictObject({
  status: z.enum(['suspended', 'active'], { error: 'must be "suspended" or "active"' }).optional(),
  expiresAt: instant.optional(),
});

export const subscriptionQuerySchema = z.object({
  user: z.string().optional(),
  status: z.enum(['active', 'suspended', 'expired'], { error: 'must be active, suspended or expired' }).optional(),
});

const codeCommon = {
  count: wholeNumber(1, 1000).optional(),
  expiresAt: instant.nullable().optional(),
};

export const redemptionCodeCreateSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('balance'), amount: positiveUsd, ...codeCommon }),
    z.strictObject({ kind: z.literal('subscription'), plan: entityName, ...codeCommon }),
  ],
  { error: 'kind must be "balance" or "subscription"' },
);

export const redeemSchema = z.strictObject({ code: z.string().trim().min(1, 'must not be empty').max(200) });
