import type { KeyLimits } from '../domain/api-key.ts';

export type SpendPeriod = 'daily' | 'weekly' | 'monthly';

export interface SpendWindow {
  period: SpendPeriod;
  /** Stable name of this window, e.g. `2024-05-06`, `w2024-05-06` (its Monday), `2024-05`. */
  id: string;
  limitMicros: number;
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms, exclusive. */
  end: number;
}

const DAY = 86_400_000;

/** The spend windows a key's limits define at `now`, in UTC: day, week from Monday, calendar month. */
export function spendWindows(limits: KeyLimits, now: number): SpendWindow[] {
  const windows: SpendWindow[] = [];
  const dayStart = Math.floor(now / DAY) * DAY;
  if (limits.dailySpendMicros !== undefined) {
    windows.push({ period: 'daily', id: isoDay(dayStart), limitMicros: limits.dailySpendMicros, start: dayStart, end: dayStart + DAY });
  }
  if (limits.weeklySpendMicros !== undefined) {
    // getUTCDay: Sunday 0 … Saturday 6; weeks start on Monday.
    const weekStart = dayStart - ((new Date(dayStart).getUTCDay() + 6) % 7) * DAY;
    windows.push({
      period: 'weekly',
      id: `w${isoDay(weekStart)}`,
      limitMicros: limits.weeklySpendMicros,
      start: weekStart,
      end: weekStart + 7 * DAY,
    });
  }
  if (limits.monthlySpendMicros !== undefined) {
    const date = new Date(now);
    const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
    windows.push({ period: 'monthly', id: isoDay(start).slice(0, 7), limitMicros: limits.monthlySpendMicros, start, end });
  }
  return windows;
}

/** The earliest start of any window that can be open at `now`, for loading spend at start-up. */
export function earliestWindowStart(now: number): number {
  const all = spendWindows({ dailySpendMicros: 0, weeklySpendMicros: 0, monthlySpendMicros: 0 }, now);
  return Math.min(...all.map((window) => window.start));
}

function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}
