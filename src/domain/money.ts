/**
 * Bounds on every money-valued number the gateway accepts or computes. Each is far above any
 * real value and far below where integer micro-USD stops being exact (2^53 ≈ 9e15), so no
 * admin input or upstream report can turn a charge into Infinity, NaN or an inexact number
 * — one such value used to poison the shared charge batch and halt all billing.
 */

/** Group price multipliers: 0 (free) up to this. */
export const MAX_PRICE_MULTIPLIER = 1_000;
/** Model prices, USD per million tokens (the dearest real model is under 1,000). */
export const MAX_PRICE_USD_PER_MILLION = 100_000;
/** Balances and spend caps, USD. */
export const MAX_USD_AMOUNT = 1_000_000_000;
/** Tokens of one class in one request's usage; upstream reports beyond are clamped (with a warning upstream of here). */
export const MAX_BILLED_TOKENS = 1_000_000_000;
/** One request's charge, micro-USD (= MAX_USD_AMOUNT). */
export const MAX_CHARGE_MICROS = 1_000_000_000_000_000;

/** A token count fit for billing: finite, whole, from 0 to MAX_BILLED_TOKENS (negative and NaN count as 0). */
export function billableTokens(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value) || value <= 0) return value === Number.POSITIVE_INFINITY ? MAX_BILLED_TOKENS : 0;
  return Math.min(MAX_BILLED_TOKENS, Math.floor(value));
}

/** A charge fit for the ledger: a safe integer from 0 to MAX_CHARGE_MICROS. */
export function boundedChargeMicros(value: number): number {
  if (Number.isNaN(value) || value <= 0) return 0;
  return Math.min(MAX_CHARGE_MICROS, Math.floor(value));
}

/** Micro-USD in one USD: every amount the gateway stores or bills is an integer of micro-USD. */
export const MICROS_PER_USD = 1_000_000;

/** An amount an operator or a file states in USD, as the integer micro-USD the gateway keeps. */
export function usdToMicros(usd: number): number {
  return Math.round(usd * MICROS_PER_USD);
}

/** Micro-USD as the USD every answer shows. */
export function microsToUsd(micros: number): number {
  return micros / MICROS_PER_USD;
}
