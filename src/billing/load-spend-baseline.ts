import type { UsageLogRepository } from '../store/store.ts';
import type { SpendBaseline } from './balance-meter.ts';
import { earliestWindowStart } from './spend-windows.ts';

const DAY = 86_400_000;

/**
 * Reads, once at start-up, what each key spent in every day that an open spend window can
 * cover (at most since the start of the month or the week), so that caps survive a restart
 * without the hot path reading the database.
 */
export async function loadSpendBaseline(usage: Pick<UsageLogRepository, 'aggregate'>, now: number): Promise<SpendBaseline> {
  const rows = await usage.aggregate({ from: earliestWindowStart(now), to: now + DAY, by: 'key' });
  const byKey = new Map<string, Array<{ day: number; costMicros: number }>>();
  for (const row of rows) {
    if (row.subject === null || row.costMicros === 0) continue;
    const days = byKey.get(row.subject) ?? [];
    days.push({ day: Date.parse(`${row.day}T00:00:00Z`), costMicros: row.costMicros });
    byKey.set(row.subject, days);
  }
  return (keyId, start, end) => (byKey.get(keyId) ?? []).reduce((sum, { day, costMicros }) => (day >= start && day < end ? sum + costMicros : sum), 0);
}
