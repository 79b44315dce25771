import { z } from 'zod';
import { MAX_USD_AMOUNT } from '../domain/money.ts';
import type { Store } from '../store/store.ts';

const usdAmount = z.number('must be a number of USD').finite().positive('must be greater than 0').max(MAX_USD_AMOUNT);
const percent = z.number('must be a percentage').finite().min(0, 'must not be negative').max(100, 'must be at most 100');

/** `PATCH /api/admin/account-settings` `topUp`: what a top-up may be and what it earns. */
export const topUpRulesSchema = z
  .strictObject({
    minUsd: usdAmount,
    maxUsd: usdAmount,
    presetsUsd: z.array(usdAmount).max(20),
    /** "pay 100, get 110": from `fromUsd` paid, `bonusPercent` more is credited; the highest tier reached applies. */
    bonusTiers: z.array(z.strictObject({ fromUsd: usdAmount, bonusPercent: percent })).max(20),
  })
  .refine((rules) => rules.minUsd <= rules.maxUsd, { message: 'minUsd must not be above maxUsd', path: ['minUsd'] });

/**
 * `referral`: the rebate on invitees' paid orders, how long it is held before it is credited, and
 * whether inviters may ask to be paid out their credited rebates (from `withdrawMinUsd` a request).
 */
export const referralRulesSchema = z.strictObject({
  ratePercent: percent,
  holdDays: z.number().int('must be whole days').min(0).max(365),
  withdrawalsEnabled: z.boolean().optional(),
  withdrawMinUsd: usdAmount.optional(),
});

/** `exchangeRates`: how many units of a currency one USD is (`{"CNY": 7.2}`), for display and charging. */
export const exchangeRatesSchema = z.record(
  z.string().regex(/^[A-Za-z]{3}$/, 'keys must be three-letter currency codes'),
  z.number().finite().positive('must be greater than 0').max(1_000_000),
);

export type TopUpRules = z.infer<typeof topUpRulesSchema>;
export type ReferralRules = z.infer<typeof referralRulesSchema>;
export type ExchangeRates = z.infer<typeof exchangeRatesSchema>;

export const DEFAULT_TOP_UP_RULES: TopUpRules = { minUsd: 1, maxUsd: 10_000, presetsUsd: [5, 10, 20, 50, 100], bonusTiers: [] };
export const DEFAULT_REFERRAL_RULES: ReferralRules = { ratePercent: 0, holdDays: 7 };

const NAMES = { topUp: 'payments.top-up', referral: 'payments.referral', exchangeRates: 'payments.exchange-rates' } as const;

export interface PaymentSettings {
  topUp: TopUpRules;
  referral: ReferralRules;
  exchangeRates: ExchangeRates;
}

/** The operator's payment settings, with defaults for what was never set. */
export async function readPaymentSettings(store: Store): Promise<PaymentSettings> {
  const [topUp, referral, rates] = await Promise.all([
    store.settings.get(NAMES.topUp),
    store.settings.get(NAMES.referral),
    store.settings.get(NAMES.exchangeRates),
  ]);
  return {
    topUp: topUp === undefined ? DEFAULT_TOP_UP_RULES : (JSON.parse(topUp) as TopUpRules),
    referral: referral === undefined ? DEFAULT_REFERRAL_RULES : (JSON.parse(referral) as ReferralRules),
    exchangeRates: rates === undefined ? {} : (JSON.parse(rates) as ExchangeRates),
  };
}

/** Saves the parts given (each already checked by its schema). */
export async function writePaymentSettings(store: Store, patch: Partial<PaymentSettings>): Promise<void> {
  if (patch.topUp) await store.settings.set(NAMES.topUp, JSON.stringify(patch.topUp));
  if (patch.referral) await store.settings.set(NAMES.referral, JSON.stringify(patch.referral));
  if (patch.exchangeRates) {
    const upper = Object.fromEntries(Object.entries(patch.exchangeRates).map(([code, rate]) => [code.toUpperCase(), rate]));
    await store.settings.set(NAMES.exchangeRates, JSON.stringify(upper));
  }
}
