import { ago, DASH, percent, windowLength } from './format.ts';
import type { Channel } from './types.ts';
import { t } from '../i18n/i18n.ts';

export interface ChannelStatus {
  /** Would routing send traffic here now? */
  usable: boolean;
  /** The gateway's word for the badge: healthy, degraded, failing, disabled, circuit open, untested. */
  label: string;
  /** Badge colour: ok (green), warn (amber), down (red), idle (grey). */
  tone: 'ok' | 'warn' | 'down' | 'idle';
  reason: string | null;
}

const TONES: Record<string, ChannelStatus['tone']> = {
  healthy: 'ok',
  degraded: 'warn',
  failing: 'down',
  'circuit open': 'down',
  disabled: 'idle',
  untested: 'idle',
};

/** The outcome of the row's own "Test" button, when one has run since the page loaded. */
export interface ChannelTestOutcome {
  ok: boolean;
  text: string;
}

/**
 * The gateway derives the status from live traffic, probes and manual tests
 * (src/routing/health-status.ts); this only picks the colour. A test run from this page is a
 * call through the channel too: a row whose health still says "untested" (read before the test,
 * or from a gateway that did not count it) shows the test's outcome instead.
 */
export function channelStatus(channel: Channel, test?: ChannelTestOutcome | null): ChannelStatus {
  const health = channel.health;
  if (test && channel.enabled && (!health || health.status === 'untested')) {
    return test.ok
      ? { usable: true, label: 'healthy', tone: 'ok', reason: t('channelState.testPassed') }
      : { usable: true, label: 'failing', tone: 'down', reason: t('channelState.testFailed') };
  }
  if (!health) {
    return channel.enabled
      ? { usable: true, label: 'untested', tone: 'idle', reason: null }
      : { usable: false, label: 'disabled', tone: 'idle', reason: t('channelState.byOperator') };
  }
  return {
    usable: channel.enabled && health.status !== 'circuit open',
    label: health.status,
    tone: TONES[health.status] ?? 'warn',
    reason: health.statusReason ?? null,
  };
}

const STATE_KEYS: Record<string, string> = {
  healthy: 'channelState.healthy',
  degraded: 'channelState.degraded',
  failing: 'channelState.failing',
  'circuit open': 'channelState.circuitOpen',
  disabled: 'channelState.disabled',
  untested: 'channelState.untested',
};

/** The badge's word in the reader's language (`label` stays the gateway's word, for tone and tests). */
export function channelStateName(label: string): string {
  const key = STATE_KEYS[label];
  return key ? t(key) : label;
}

export function lastErrorText(channel: Channel): string | null {
  const error = channel.health?.lastError;
  if (!error) return null;
  return [error.code, error.message].filter(Boolean).join(': ') || null;
}

/**
 * The success column: the share over the gateway's rolling window, or why it is empty (no
 * call inside the window; when the channel last served one).
 */
export function successText(channel: Channel, now = Date.now()): { value: string; note: string | null } {
  const health = channel.health;
  if (!health) return { value: DASH, note: null };
  if (health.successRate !== null) return { value: percent(health.successRate), note: null };
  const window = windowLength(health.successWindowMs);
  if (health.lastSuccessAt !== null) return { value: DASH, note: t('channelState.noCallsLast', { window, ago: ago(health.lastSuccessAt, now) }) };
  return { value: DASH, note: t('channelState.noCalls', { window }) };
}

/** The column header names the window, so an empty cell reads as "nothing lately", not "never". */
export function successHeader(channels: readonly Channel[]): string {
  const windowMs = channels.find((channel) => channel.health)?.health?.successWindowMs;
  return windowMs === undefined ? t('channelState.success') : t('channelState.successWindow', { window: windowLength(windowMs) });
}
