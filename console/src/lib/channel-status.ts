import type { Channel } from './types.ts';

export interface ChannelStatus {
  /** Would routing send traffic here now? */
  usable: boolean;
  /** One word for the badge: enabled, disabled, open, half-open… */
  label: string;
  reason: string | null;
}

const DOWN_STATES = new Set(['open', 'down', 'unhealthy', 'failing', 'disabled', 'dead', 'removed', 'out']);

/** Reads the channel's enabled flag and, when the gateway reports it, its health and circuit. */
export function channelStatus(channel: Channel): ChannelStatus {
  if (!channel.enabled) return { usable: false, label: 'disabled', reason: 'disabled by the operator' };
  const health = channel.health;
  if (!health) return { usable: true, label: 'enabled', reason: null };
  const circuit: string = health.state;
  const reason = health.reason ?? null;
  if (circuit && DOWN_STATES.has(circuit.toLowerCase())) return { usable: false, label: `circuit ${circuit}`, reason };
  if (circuit === 'half-open') return { usable: true, label: 'half-open (probing)', reason };
  return { usable: true, label: circuit === 'closed' ? 'healthy' : circuit, reason };
}

export function lastErrorText(channel: Channel): string | null {
  const error = channel.health?.lastError;
  if (!error) return null;
  return [error.code, error.message].filter(Boolean).join(': ') || null;
}
