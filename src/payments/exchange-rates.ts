import type { ExchangeRates } from './payment-settings.ts';

/** Micro-USD in one cent: amounts are charged in the currency's minor unit (two decimals). */
const MICROS_PER_MINOR_USD = 10_000;

/** The rate of a currency against USD (USD itself is 1); undefined when the operator set none. */
export function rateOf(currency: string, rates: ExchangeRates): number | undefined {
  return currency.toLowerCase() === 'usd' ? 1 : rates[currency.toUpperCase()];
}

/**
 * What to charge for `amountMicros`, in the currency's minor unit, rounded to the nearest; only
 * two-decimal currencies (USD, CNY, EUR, …) are supported. Undefined when no rate is set.
 */
export function chargeMinorFor(amountMicros: number, currency: string, rates: ExchangeRates): number | undefined {
  const rate = rateOf(currency, rates);
  if (rate === undefined) return undefined;
  return Math.round((amountMicros * rate) / MICROS_PER_MINOR_USD);
}
