import { microsToUsd } from '../domain/money.ts';
import type { UsageLogRepository } from '../store/store.ts';
import type { Notifier } from './notifier.ts';

const HOUR = 3_600_000;
/** Fewer requests than this in the window say nothing about a channel's error rate. */
export const MIN_REQUESTS_FOR_ERROR_RATE = 20;
/** Fewer answered requests than this in the window say nothing about a channel's time to first byte. */
export const MIN_ANSWERS_FOR_TTFB = 20;
/** The "usual" hourly spend is the mean over this long before the window. */
export const SPEND_BASELINE_MS = 7 * 24 * HOUR;
/** Spend below this in the window is never a spike (a key going from 1 cent to 10 cents is not news). */
export const MIN_SPIKE_MICROS = 1_000_000;

export interface TrafficSources {
  usage: Pick<UsageLogRepository, 'channelWindow' | 'spendWindow'>;
  channelName(id: string): string | undefined;
}

/** Channels' error rates and times to first byte, and keys' and accounts' spend against their usual, from the usage log. */
export async function scanTraffic(sources: TrafficSources, notifier: Notifier, now: number): Promise<void> {
  if (notifier.hasRules('channel.error_rate')) await scanErrorRates(sources, notifier, now);
  if (notifier.hasRules('channel.ttfb')) await scanTtfb(sources, notifier, now);
  if (notifier.hasRules('spend.spike')) await scanSpend(sources, notifier, now);
}

async function scanErrorRates(sources: TrafficSources, notifier: Notifier, now: number): Promise<void> {
  for (const windowSeconds of notifier.windowsFor('channel.error_rate')) await scanErrorRate(sources, notifier, now, windowSeconds);
}

async function scanErrorRate(sources: TrafficSources, notifier: Notifier, now: number, windowSeconds: number): Promise<void> {
  for (const row of await sources.usage.channelWindow(now - windowSeconds * 1000, now)) {
    if (row.requests < MIN_REQUESTS_FOR_ERROR_RATE) continue;
    const rate = row.failed / row.requests;
    const data = {
      subject: row.channelId,
      channelId: row.channelId,
      channel: sources.channelName(row.channelId) ?? row.channelId,
      requests: row.requests,
      failed: row.failed,
      errorRate: Math.round(rate * 1000) / 1000,
      windowSeconds,
    };
    await notifier.emitNotification('channel.error_rate', data, rate);
  }
}

/** A channel's p95 time to first byte over each window the rules ask for, from the answered requests' latency bins. */
async function scanTtfb(sources: TrafficSources, notifier: Notifier, now: number): Promise<void> {
  for (const windowSeconds of notifier.windowsFor('channel.ttfb')) {
    for (const row of await sources.usage.channelWindow(now - windowSeconds * 1000, now)) {
      if (row.answered < MIN_ANSWERS_FOR_TTFB || row.ttfbP95Ms === null) continue;
      const data = {
        subject: row.channelId,
        channelId: row.channelId,
        channel: sources.channelName(row.channelId) ?? row.channelId,
        answered: row.answered,
        ttfbP95Ms: row.ttfbP95Ms,
        windowSeconds,
      };
      await notifier.emitNotification('channel.ttfb', data, row.ttfbP95Ms);
    }
  }
}

/**
 * The window's (default the last hour's) spend per key and per account over the mean hourly spend of the week before it.
 * A key with no history has no usual to compare with and never spikes.
 */
async function scanSpend(sources: TrafficSources, notifier: Notifier, now: number): Promise<void> {
  for (const windowSeconds of notifier.windowsFor('spend.spike')) await scanSpendOver(sources, notifier, now, windowSeconds * 1000);
}

async function scanSpendOver(sources: TrafficSources, notifier: Notifier, now: number, windowMs: number): Promise<void> {
  const [recent, before] = await Promise.all([
    sources.usage.spendWindow(now - windowMs, now),
    sources.usage.spendWindow(now - windowMs - SPEND_BASELINE_MS, now - windowMs),
  ]);
  const usualPerWindow = (micros: number) => (micros * windowMs) / SPEND_BASELINE_MS;
  const baseline = totals(before);
  for (const [subject, { costMicros, userId }] of totals(recent)) {
    const usual = usualPerWindow(baseline.get(subject)?.costMicros ?? 0);
    if (costMicros < MIN_SPIKE_MICROS || usual <= 0) continue;
    const data = { subject, userId, spentUsd: microsToUsd(costMicros), usualUsd: Math.round(microsToUsd(usual) * 100) / 100, windowSeconds: windowMs / 1000 };
    await notifier.emitNotification('spend.spike', data, costMicros / usual);
  }
}

/** Spend per `key:<id>` and per `account:<id>`. */
function totals(rows: Array<{ keyId: string; userId: string | null; costMicros: number }>): Map<string, { costMicros: number; userId: string | null }> {
  const sums = new Map<string, { costMicros: number; userId: string | null }>();
  const add = (subject: string, userId: string | null, costMicros: number) => {
    const entry = sums.get(subject) ?? { costMicros: 0, userId };
    entry.costMicros += costMicros;
    sums.set(subject, entry);
  };
  for (const row of rows) {
    add(`key:${row.keyId}`, row.userId, row.costMicros);
    if (row.userId !== null) add(`account:${row.userId}`, row.userId, row.costMicros);
  }
  return sums;
}
