import { usdToMicros } from '../domain/money.ts';
import type { PromotionCode } from '../store/payment-ports.ts';
import type { TopUpRules } from './payment-settings.ts';

/**
 * The bonus a top-up earns: the highest tier whose `fromUsd` the amount reaches, as a percentage
 * of the amount ("pay 100, get 110" is `{fromUsd: 100, bonusPercent: 10}`), floored to a micro-USD.
 */
export function bonusFor(amountMicros: number, rules: TopUpRules): number {
  const tier = rules.bonusTiers.filter((candidate) => amountMicros >= usdToMicros(candidate.fromUsd)).sort((a, b) => b.fromUsd - a.fromUsd)[0];
  return tier ? Math.floor((amountMicros * tier.bonusPercent) / 100) : 0;
}

/** Why an amount is not a top-up the rules allow, or undefined when it is. */
export function topUpProblem(amountMicros: number, rules: TopUpRules): string | undefined {
  if (amountMicros < usdToMicros(rules.minUsd)) return `The smallest top-up is $${rules.minUsd}.`;
  if (amountMicros > usdToMicros(rules.maxUsd)) return `The largest top-up is $${rules.maxUsd}.`;
  return undefined;
}

/** The price after a promotion code (never below zero, floored to a micro-USD). */
export function discounted(amountMicros: number, promotion: PromotionCode | undefined): number {
  if (!promotion) return amountMicros;
  const off = promotion.kind === 'percent' ? Math.floor((amountMicros * promotion.value) / 100) : promotion.value;
  return Math.max(0, amountMicros - off);
}
