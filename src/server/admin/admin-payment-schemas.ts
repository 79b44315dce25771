import { z } from 'zod';
import { ORDER_STATUSES, PAYMENT_PROVIDERS } from '../../domain/order.ts';
import { WITHDRAWAL_STATUSES } from '../../domain/withdrawal.ts';
import { positiveUsd } from '../../schemas/field-rules.ts';

export const orderQuerySchema = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  /** A user's id or name. */
  user: z.string().max(200).optional(),
  provider: z.enum(PAYMENT_PROVIDERS).optional(),
  /** ISO dates (inclusive from, exclusive to). */
  from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  limit: z.coerce.number().int().min(1).max(5_000).optional(),
});

export const orderRefundSchema = z.strictObject({ amountUsd: positiveUsd.optional() });

export const promotionCreateSchema = z
  .strictObject({
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{3,64}$/, 'must be 3 to 64 letters, digits, "_" or "-"'),
    kind: z.enum(['percent', 'fixed']),
    /** percent: 1–100; fixed: USD off. */
    value: z.number().finite().positive(),
    usageLimit: z.number().int().positive().nullable().optional(),
    expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
  })
  .refine((input) => input.kind !== 'percent' || input.value <= 100, { message: 'a percent promotion is at most 100', path: ['value'] });

export const referralOverrideSchema = z.strictObject({ ratePercent: z.number().finite().min(0).max(100).nullable() });

export const withdrawalQuerySchema = z.object({
  status: z.enum(WITHDRAWAL_STATUSES).optional(),
  /** A user's id or name. */
  user: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(5_000).optional(),
});

/** A decision's optional words: why a request is rejected, the transfer's reference once paid. */
export const withdrawalDecisionSchema = z.strictObject({
  reason: z.string().trim().min(1).max(500).optional(),
  payoutRef: z.string().trim().min(1).max(200).optional(),
});
