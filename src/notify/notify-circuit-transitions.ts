import type { Logger } from 'pino';
import type { CircuitFeed } from '../domain/circuit-transition.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import type { CircuitHistoryRepository } from '../store/repositories/announcement-repository.ts';
import type { Notifier } from './notifier.ts';

/**
 * Each circuit of a channel (or of a channel × model) that opens or closes here is recorded for
 * the status page's incidents and raised as `channel.down` / `channel.up`; circuits of single
 * upstream keys are not (the channel still serves through its other keys). Keeps whatever else
 * listens for transitions.
 */
export interface CircuitNotifyDeps {
  snapshot: SnapshotHolder;
  notifier: Notifier;
  history: CircuitHistoryRepository;
  logger: Logger;
  now: () => number;
}

export function notifyCircuitTransitions(health: CircuitFeed, { snapshot, notifier, history, logger, now }: CircuitNotifyDeps): void {
  const next = health.onTransition;
  health.onTransition = (transition) => {
    next?.(transition);
    if (transition.keyIndex !== null) return;
    const model = transition.model ?? null;
    const at = transition.state === 'open' ? (transition.openedAt ?? now()) : now();
    history.record({ channelId: transition.channelId, model, state: transition.state, reason: transition.reason, at }).catch((error: unknown) => {
      logger.warn({ err: error, channelId: transition.channelId }, 'could not record a circuit transition');
    });
    const channel = snapshot.current.channels.get(transition.channelId)?.name ?? transition.channelId;
    const data = { subject: `${transition.channelId}:${model ?? '*'}`, channelId: transition.channelId, channel, model, reason: transition.reason };
    void notifier.emitNotification(transition.state === 'open' ? 'channel.down' : 'channel.up', data);
  };
}
