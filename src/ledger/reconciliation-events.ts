import type { ReconciledDay } from './reconcile-costs.ts';

/** The event a drifting channel-day raises, for the alerting work to send. */
export interface ReconciliationDriftEvent {
  type: 'reconciliation.drift';
  channelId: string;
  channelName: string | null;
  day: string;
  ledgerMicros: number;
  upstreamMicros: number;
  driftMicros: number;
  driftPercent: number;
  thresholdPercent: number;
  at: number;
}

type Listener = (event: ReconciliationDriftEvent) => void;

/**
 * A small hook, one per gateway process: reconciliation emits `reconciliation.drift` for each
 * channel-day above the threshold; subscribers (alerting) hear it. A listener that throws is
 * isolated, never failing the import that found the drift.
 */
export class ReconciliationEvents {
  #listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emitDrift(
    days: readonly ReconciledDay[],
    context: { thresholdPercent: number; at: number; channelName: (id: string) => string | null },
  ): ReconciliationDriftEvent[] {
    const events = days
      .filter((day) => day.status === 'drift')
      .map(
        (day): ReconciliationDriftEvent => ({
          type: 'reconciliation.drift',
          channelId: day.channelId,
          channelName: context.channelName(day.channelId),
          day: day.day,
          ledgerMicros: day.ledgerMicros,
          upstreamMicros: day.upstreamMicros,
          driftMicros: day.driftMicros,
          driftPercent: day.driftPercent,
          thresholdPercent: context.thresholdPercent,
          at: context.at,
        }),
      );
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch {
          // A subscriber's failure is its own; the drift is still reported in the answer.
        }
      }
    }
    return events;
  }
}
