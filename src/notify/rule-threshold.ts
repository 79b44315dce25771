import { microsToUsd, usdToMicros } from '../domain/money.ts';
import type { NotificationEvent } from '../domain/notification.ts';
import { EVENT_DEFAULTS } from './event-defaults.ts';

/** A threshold as stored: micro-USD for money events (given in USD on the wire), the number itself otherwise. */
export function storedThreshold(event: NotificationEvent, wire: number | null | undefined): number | null {
  if (wire === null || wire === undefined) return null;
  return EVENT_DEFAULTS[event].unit === 'usd' ? usdToMicros(wire) : wire;
}

/** The threshold as the API shows it (USD for money). */
export function wireThreshold(event: NotificationEvent, stored: number | null): number | null {
  if (stored === null) return null;
  return EVENT_DEFAULTS[event].unit === 'usd' ? microsToUsd(stored) : stored;
}

/** What a rule for `event` may set, or why not: events without a threshold refuse one; ratios stay within 0–10. */
export function thresholdProblem(event: NotificationEvent, wire: number | null | undefined): string | undefined {
  if (wire === null || wire === undefined) return undefined;
  const { unit } = EVENT_DEFAULTS[event];
  if (unit === null) return `event ${event} has no threshold`;
  if (unit === 'ratio' && wire > 10) return 'a ratio (0.2 = 20 %) must be at most 10';
  if (unit === 'days' && wire > 365) return 'must be at most 365 days';
  if (unit === 'ms' && wire > 600_000) return 'must be at most 600000 ms (10 minutes)';
  return undefined;
}

/** Events an account holder may set rules for in the portal: their own money, keys and subscriptions. */
export const ACCOUNT_EVENTS: readonly NotificationEvent[] = [
  'wallet.low',
  'key.balance_low',
  'subscription.quota_80',
  'subscription.quota_100',
  'subscription.expiring',
  'key.expiring',
  'spend.spike',
  'order.paid',
  'order.refunded',
];
