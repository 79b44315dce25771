import type { CircuitHistoryEntry } from '../domain/announcement.ts';
import type { StatusFiguresRow, StatusWindowCounts } from '../store/usage-queries.ts';

const WINDOW_MS = 30 * 86_400_000;

export interface StatusIncident {
  startedAt: string;
  endedAt: string | null;
  summary: string;
}

/** One group × model of `GET /api/status`, exactly as the contract names its fields. */
export interface StatusModel {
  group: string;
  model: string;
  availability: { '24h': number | null; '7d': number | null; '30d': number | null };
  successRate: number | null;
  ttfbMs: { p50: number | null; p95: number | null };
  incidents: StatusIncident[];
}

export interface StatusReport {
  generatedAt: string;
  models: StatusModel[];
}

export interface StatusInputs {
  now: number;
  /** Every routed group × model with the channels that serve it (the snapshot's routes). */
  routes: Array<{ group: string; model: string; channels: Array<{ id: string; name: string; upstreamModel: string }> }>;
  figures: StatusFiguresRow[];
  history: CircuitHistoryEntry[];
  showChannelNames: boolean;
}

/** An incident's summary when channel names are hidden (the status page translates it). */
export const ROUTE_OUT_SUMMARY = 'A route serving this model was out of service; requests were sent to the others where there were any';

/**
 * The status page's figures. Availability: answered requests over those not refused for the
 * client's own fault (a 400 or a 401 says nothing about the service; a 429 or a 5xx does).
 * Success rate: answered over all, last 24 h. TTFB: the last 24 h's successes. Incidents: each
 * period a channel serving the model had its circuit open (the channel's own, or its circuit for
 * this model), from the last 30 days, newest first; duplicates from several instances are merged.
 */
export function buildStatusReport(input: StatusInputs): StatusReport {
  const figures = new Map(input.figures.map((row) => [`${row.group}\u0000${row.model}`, row]));
  const intervals = circuitIntervals(input.history, input.now);
  const models = input.routes.map(({ group, model, channels }): StatusModel => {
    const row = figures.get(`${group}\u0000${model}`);
    const incidents = channels
      .flatMap((channel) =>
        (intervals.get(channel.id) ?? [])
          .filter((interval) => interval.model === null || interval.model === model || interval.model === channel.upstreamModel)
          .map((interval) => ({ ...interval, channel: channel.name })),
      )
      .sort((a, b) => b.start - a.start)
      .map((interval) => ({
        startedAt: new Date(interval.start).toISOString(),
        endedAt: interval.end === null ? null : new Date(interval.end).toISOString(),
        summary: input.showChannelNames ? `Channel ${interval.channel} was out of service${interval.reason ? `: ${interval.reason}` : ''}` : ROUTE_OUT_SUMMARY,
      }));
    return {
      group,
      model,
      availability: { '24h': availability(row?.windows['24h']), '7d': availability(row?.windows['7d']), '30d': availability(row?.windows['30d']) },
      successRate: row && row.windows['24h'].requests > 0 ? ratio(row.windows['24h'].succeeded, row.windows['24h'].requests) : null,
      ttfbMs: { p50: row?.ttfbP50Ms ?? null, p95: row?.ttfbP95Ms ?? null },
      incidents,
    };
  });
  return { generatedAt: new Date(input.now).toISOString(), models };
}

function availability(counts: StatusWindowCounts | undefined): number | null {
  if (!counts) return null;
  const counted = counts.requests - counts.clientErrors;
  return counted > 0 ? ratio(counts.succeeded, counted) : null;
}

function ratio(part: number, whole: number): number {
  return Math.round((part / whole) * 10_000) / 10_000;
}

interface Interval {
  model: string | null;
  start: number;
  end: number | null;
  reason: string | null;
}

/** Open → close periods per channel (and model), overlapping ones merged; one still open has no end. */
function circuitIntervals(history: CircuitHistoryEntry[], now: number): Map<string, Interval[]> {
  const open = new Map<string, Interval>();
  const done = new Map<string, Interval[]>();
  const push = (channelId: string, interval: Interval) => {
    const list = done.get(channelId) ?? [];
    const last = list[list.length - 1];
    if (last && last.model === interval.model && (last.end === null || interval.start <= last.end)) {
      last.end = last.end === null || interval.end === null ? null : Math.max(last.end, interval.end);
    } else list.push(interval);
    done.set(channelId, list);
  };
  for (const entry of [...history].sort((a, b) => a.at - b.at)) {
    const id = `${entry.channelId}\u0000${entry.model ?? ''}`;
    if (entry.state === 'open') {
      if (!open.has(id)) open.set(id, { model: entry.model, start: entry.at, end: null, reason: entry.reason });
      continue;
    }
    const started = open.get(id);
    if (!started) continue;
    open.delete(id);
    push(entry.channelId, { ...started, end: entry.at });
  }
  for (const [id, interval] of open) push(id.split('\u0000')[0]!, interval);
  for (const list of done.values()) list.sort((a, b) => a.start - b.start);
  return new Map([...done].map(([id, list]) => [id, list.filter((interval) => (interval.end ?? now) >= now - WINDOW_MS)]));
}
