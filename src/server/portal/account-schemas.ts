import { z } from 'zod';
import { positiveUsd } from '../../schemas/field-rules.ts';
import { isIpOrCidr } from '../../schemas/is-ip-or-cidr.ts';

/** The portal's bodies (issue 16). */
export const signInSchema = z.strictObject({ login: z.string().min(1).max(320), password: z.string().min(1).max(1024), totp: z.string().max(64).optional() });
// The admin API's USD rule (schemas/field-rules.ts: one bound for every amount, 1e9); a cap set here must be above 0, and null removes it.
const capsSchema = z.strictObject({
  dailySpend: positiveUsd.nullable().optional(),
  weeklySpend: positiveUsd.nullable().optional(),
  monthlySpend: positiveUsd.nullable().optional(),
});
const ipListSchema = z.array(z.string().refine(isIpOrCidr, 'must be an IP address or CIDR range, e.g. 203.0.113.0/24')).max(100).nullable().optional();
export const keyCreateSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  group: z.string().min(1),
  allowedIps: ipListSchema,
  limits: capsSchema.optional(),
});
export const keyPatchSchema = z.strictObject({ name: z.string().trim().min(1).max(100).optional(), allowedIps: ipListSchema, limits: capsSchema.optional() });
export const redeemSchema = z.strictObject({ code: z.string().min(1).max(200) });
