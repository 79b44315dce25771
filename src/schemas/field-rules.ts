import { z } from 'zod';
import { MAX_PRICE_MULTIPLIER, MAX_PRICE_USD_PER_MILLION, MAX_USD_AMOUNT } from '../domain/money.ts';
import { isIpOrCidr } from './is-ip-or-cidr.ts';

/**
 * The rules for one field, shared by every way an operator states it: the admin API, the
 * config file and (through them) the OpenAPI description. Messages complete "<field>: ".
 */

export const entityName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

/** Group names appear in URLs and key settings, so they keep to a safe alphabet. */
export const groupName = entityName.regex(/^[A-Za-z0-9_.-]+$/, 'may contain letters, digits, "_", "-" and "." only');

/** Model names are the upstream's own spelling, so only their length is bounded. */
export const modelName = z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const httpUrl = z
  .string()
  .url('must be an http(s) URL')
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL');

/** An upstream secret as given; never echoed in a message. */
export const secret = z.string().min(1, 'must not be empty').max(10_000, 'must be at most 10000 characters');

// Bounded so micro-USD stays a safe integer and fits a PostgreSQL bigint.
export const usd = z
  .number('must be a number of USD')
  .finite()
  .nonnegative('must not be negative')
  .max(MAX_USD_AMOUNT, `must be at most ${MAX_USD_AMOUNT} (USD)`);

export const positiveUsd = usd.positive('must be greater than 0');

/** A signed change to an amount (a top-up or a correction), bounded like every amount. */
export const usdChange = z
  .number('must be a number of USD')
  .finite()
  .min(-MAX_USD_AMOUNT, `must be at least -${MAX_USD_AMOUNT} (USD)`)
  .max(MAX_USD_AMOUNT, `must be at most ${MAX_USD_AMOUNT} (USD)`);

// Per million tokens; bounded so a price times any request stays an exact, finite charge.
export const usdPerMillion = z
  .number('must be a number of USD per million tokens')
  .finite()
  .nonnegative('must not be negative')
  .max(MAX_PRICE_USD_PER_MILLION, `must be at most ${MAX_PRICE_USD_PER_MILLION} (USD per million tokens)`);

/** 0 makes a free group. */
export const priceMultiplier = z
  .number('must be a number')
  .finite()
  .nonnegative('must not be negative')
  .max(MAX_PRICE_MULTIPLIER, `must be at most ${MAX_PRICE_MULTIPLIER}`);

export const ipOrCidr = z.string().refine(isIpOrCidr, {
  error: (issue) => `must be an IP address or CIDR (e.g. 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32), not ${JSON.stringify(issue.input)}`,
});

export const email = z.string().trim().email('must be an email address').max(320);

export const password = z.string().min(8, 'must be at least 8 characters long').max(1024, 'must be at most 1024 characters long');

export const wholeNumber = (min: number, max: number) =>
  z.number('must be a number').int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

// A day without a time is midnight UTC; a time must carry its zone so the same text means the
// same instant on every host.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
const INSTANT_MESSAGE = 'must be an ISO 8601 date or date-time with a zone (e.g. 2030-01-01 or 2030-01-01T00:00:00Z), or epoch milliseconds';

/** A point in time, given as an ISO date, an ISO date-time with a zone, or epoch ms; parsed to epoch ms. */
export const instant = z
  .union([z.string(), z.number()], { error: INSTANT_MESSAGE })
  .refine((value) => (typeof value === 'number' ? Number.isSafeInteger(value) && value > 0 : ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))), {
    error: INSTANT_MESSAGE,
  })
  .transform((value) => (typeof value === 'number' ? value : Date.parse(value)));

/** `instant` in a query string, where epoch ms arrives as digits. */
export const instantParam = z
  .string()
  .transform((value) => (/^\d+$/.test(value) ? Number(value) : value))
  .pipe(instant);
