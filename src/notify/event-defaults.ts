import type { NotificationEvent } from '../domain/notification.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How an event's measured value is compared with a rule's threshold. */
export type ThresholdKind = 'below' | 'at-least' | 'none';

/**
 * Per event: the unit of its threshold, the default, the direction, and how long one alert about
 * one subject (a wallet, a key, a channel) silences the next (`repeatMs`). The README lists the same.
 */
export interface EventDefaults {
  kind: ThresholdKind;
  /** `usd` thresholds are given in USD and kept in micro-USD; `ratio` 0–1; `days`; `times` (× usual); `ms`. */
  unit: 'usd' | 'ratio' | 'days' | 'times' | 'ms' | null;
  /** In the stored unit (micro-USD for `usd`). */
  threshold: number | null;
  /** The measuring window (error rate, spend spike), seconds. */
  windowSeconds: number | null;
  repeatMs: number;
}

export const EVENT_DEFAULTS: Readonly<Record<NotificationEvent, EventDefaults>> = {
  'wallet.low': { kind: 'below', unit: 'usd', threshold: 1_000_000, windowSeconds: null, repeatMs: DAY },
  'key.balance_low': { kind: 'below', unit: 'usd', threshold: 1_000_000, windowSeconds: null, repeatMs: DAY },
  'subscription.quota_80': { kind: 'at-least', unit: 'ratio', threshold: 0.8, windowSeconds: null, repeatMs: DAY },
  'subscription.quota_100': { kind: 'at-least', unit: 'ratio', threshold: 1, windowSeconds: null, repeatMs: DAY },
  'subscription.expiring': { kind: 'below', unit: 'days', threshold: 3, windowSeconds: null, repeatMs: 30 * DAY },
  'key.expiring': { kind: 'below', unit: 'days', threshold: 3, windowSeconds: null, repeatMs: 30 * DAY },
  // Two instances seeing the same trip within a minute send one alert; a later trip is news.
  'channel.down': { kind: 'none', unit: null, threshold: null, windowSeconds: null, repeatMs: MINUTE },
  'channel.up': { kind: 'none', unit: null, threshold: null, windowSeconds: null, repeatMs: MINUTE },
  'channel.error_rate': { kind: 'at-least', unit: 'ratio', threshold: 0.2, windowSeconds: 300, repeatMs: HOUR },
  // A p95 first byte of 10 s means people watch an empty screen; a slow reasoning model stays below it.
  'channel.ttfb': { kind: 'at-least', unit: 'ms', threshold: 10_000, windowSeconds: 300, repeatMs: HOUR },
  'spend.spike': { kind: 'at-least', unit: 'times', threshold: 5, windowSeconds: 3600, repeatMs: HOUR },
  'order.paid': { kind: 'none', unit: null, threshold: null, windowSeconds: null, repeatMs: 30 * DAY },
  'order.refunded': { kind: 'none', unit: null, threshold: null, windowSeconds: null, repeatMs: 30 * DAY },
  'reconciliation.drift': { kind: 'at-least', unit: 'usd', threshold: 10_000, windowSeconds: null, repeatMs: HOUR },
};

/** At most this many messages per rule per hour, whatever fires: a storm cannot flood a channel. */
export const RULE_MESSAGES_PER_HOUR = 30;

/** Whether `value` passes a rule's `threshold` (its default when null) for this event. */
export function passesThreshold(event: NotificationEvent, threshold: number | null, value: number | undefined): boolean {
  const defaults = EVENT_DEFAULTS[event];
  if (defaults.kind === 'none') return true;
  const limit = threshold ?? defaults.threshold;
  if (value === undefined || limit === null) return false;
  return defaults.kind === 'below' ? value < limit || (defaults.unit === 'days' && value <= limit) : value >= limit;
}
