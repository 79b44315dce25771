import type { CostByChannelDay, UpstreamBill } from '../domain/ledger-entry.ts';

/** When a day's difference is drift: both more than `percent` of the bill and more than `minMicros`. */
export interface DriftThreshold {
  percent: number;
  minMicros: number;
}

export const DEFAULT_DRIFT_THRESHOLD: DriftThreshold = { percent: 2, minMicros: 10_000 };

/** One channel's day: what the gateway recorded as cost, what the upstream billed, and the difference. */
export interface ReconciledDay {
  channelId: string;
  day: string;
  ledgerMicros: number;
  upstreamMicros: number;
  /** upstream − ledger: positive when the upstream billed more than the gateway recorded. */
  driftMicros: number;
  /** |drift| as a percent of the upstream's bill (of the ledger's when the bill is 0). */
  driftPercent: number;
  status: 'clean' | 'drift' | 'no-bill';
}

/**
 * The drift per channel per day between the ledger's cost rows and the upstream's bill, for the
 * days the upstream's export covers (a day with ledger cost but no bill line is `no-bill`, so a
 * missing import is seen rather than read as clean).
 */
export function reconcileCosts(ledger: readonly CostByChannelDay[], bills: readonly UpstreamBill[], threshold: DriftThreshold): ReconciledDay[] {
  const days = new Map<string, ReconciledDay>();
  const dayOf = (channelId: string, day: string) => {
    const key = `${channelId}\u0000${day}`;
    let entry = days.get(key);
    if (entry === undefined) {
      entry = { channelId, day, ledgerMicros: 0, upstreamMicros: 0, driftMicros: 0, driftPercent: 0, status: 'no-bill' };
      days.set(key, entry);
    }
    return entry;
  };
  const billed = new Set<string>();
  for (const bill of bills) {
    dayOf(bill.channelId, bill.day).upstreamMicros += bill.costMicros;
    billed.add(`${bill.channelId}\u0000${bill.day}`);
  }
  for (const cost of ledger) dayOf(cost.channelId, cost.day).ledgerMicros += cost.costMicros;
  for (const [key, entry] of days) {
    entry.driftMicros = entry.upstreamMicros - entry.ledgerMicros;
    const base = entry.upstreamMicros !== 0 ? entry.upstreamMicros : entry.ledgerMicros;
    entry.driftPercent = base === 0 ? 0 : Math.round((Math.abs(entry.driftMicros) / Math.abs(base)) * 10_000) / 100;
    if (!billed.has(key)) entry.status = 'no-bill';
    else entry.status = Math.abs(entry.driftMicros) > threshold.minMicros && entry.driftPercent > threshold.percent ? 'drift' : 'clean';
  }
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day) || a.channelId.localeCompare(b.channelId));
}
