import type { QuotaWindow } from '../domain/plan.ts';
import { spendWindows } from './spend-windows.ts';

export interface QuotaWindowSpan {
  window: QuotaWindow;
  /** Names the window's usage row and kv counter: `daily:2026-05-06`, `weekly:w2026-05-04`, `monthly:2026-05`, `total`. */
  id: string;
  /** Epoch ms; null for `total` (it runs with the subscription). */
  start: number | null;
  /** When the window resets (exclusive end); null for `total`. */
  end: number | null;
}

/**
 * The four windows a subscription's usage is counted in at `now`: calendar windows in UTC
 * (the day, the ISO week from Monday, the month), the same as key spend caps, plus the whole
 * term. Calendar windows rather than windows anchored at the subscription's start because they
 * reset at the same moment for everyone, which is what an operator can explain in one sentence.
 */
export function subscriptionWindows(now: number): QuotaWindowSpan[] {
  const calendar = spendWindows({ dailySpendMicros: 0, weeklySpendMicros: 0, monthlySpendMicros: 0 }, now);
  return [
    ...calendar.map((span) => ({ window: span.period, id: `${span.period}:${span.id}`, start: span.start, end: span.end })),
    { window: 'total' as const, id: 'total', start: null, end: null },
  ];
}
