import type { Logger } from 'pino';
import type { SnapshotHolder } from '../../snapshot/snapshot-holder.ts';
import type { ChannelHealth } from './channel-health.ts';

/**
 * One log line each time a circuit opens or closes here (with the channel's name and the reason),
 * keeping whatever else listens for transitions (the cluster publishes them to other instances).
 */
export function logCircuitTransitions(health: ChannelHealth, snapshot: SnapshotHolder, logger: Logger): void {
  const next = health.onTransition;
  health.onTransition = (transition) => {
    const channel = snapshot.current.channels.get(transition.channelId)?.name ?? transition.channelId;
    const which = transition.keyIndex === null ? `channel ${channel}` : `upstream key #${transition.keyIndex} of channel ${channel}`;
    const fields = {
      event: transition.state === 'open' ? 'circuit_open' : 'circuit_closed',
      channel,
      keyIndex: transition.keyIndex,
      reason: transition.reason,
      retryAt: transition.state === 'open' ? new Date(transition.retryAt).toISOString() : undefined,
    };
    if (transition.state === 'open') logger.warn(fields, `circuit opened for ${which}: ${transition.reason ?? 'failures'}`);
    else logger.info(fields, `circuit closed for ${which}`);
    next?.(transition);
  };
}
