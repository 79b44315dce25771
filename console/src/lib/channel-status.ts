import type { Channel } from './types.ts';

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

/**
 * The gateway derives the status from live traffic, probes and manual tests
 * (src/routing/health-status.ts); this only picks the colour.
 */
export function channelStatus(channel: Channel): ChannelStatus {
  const health = channel.health;
  if (!health) {
    return channel.enabled
      ? { usable: true, label: 'untested', tone: 'idle', reason: null }
      : { usable: false, label: 'disabled', tone: 'idle', reason: 'disabled by the operator' };
  }
  return {
    usable: channel.enabled && health.status !== 'circuit open',
    label: health.status,
    tone: TONES[health.status] ?? 'warn',
    reason: health.statusReason ?? null,
  };
}

export function lastErrorText(channel: Channel): string | null {
  const error = channel.health?.lastError;
  if (!error) return null;
  return [error.code, error.message].filter(Boolean).join(': ') || null;
}
