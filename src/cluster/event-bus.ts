import type { RedisConnection } from '../kv/open-redis.ts';
import type { Logger } from 'pino';

/** A circuit as one instance decided it; the others mirror it. */
export interface CircuitEvent {
  type: 'circuit';
  channelId: string;
  /** The upstream key's index, or null for the channel's own circuit. */
  keyIndex: number | null;
  state: 'open' | 'closed';
  retryAt: number;
  openedAt: number | null;
  reason: string | null;
}

/** Something changed in the store (through the admin API): reload the snapshot. */
export interface SnapshotChangedEvent {
  type: 'snapshot-changed';
}

export type ClusterEvent = CircuitEvent | SnapshotChangedEvent;

/** Messages between instances. Each instance ignores what it published itself. */
export interface EventBus {
  publish(event: ClusterEvent): Promise<void>;
  subscribe(handler: (event: ClusterEvent) => void): void;
  /** Called after the subscription was lost and is back: events may have been missed. */
  onResubscribed(handler: () => void): void;
  close(): Promise<void>;
}

/** One process: nothing to tell anybody. */
export function createLocalEventBus(): EventBus {
  return {
    publish: async () => {},
    subscribe: () => {},
    onResubscribed: () => {},
    close: async () => {},
  };
}

/**
 * Redis pub/sub on one channel. Delivery is immediate (no polling); a message published while
 * an instance is disconnected is lost for it, so on reconnecting it is told to resynchronise.
 */
export function createRedisEventBus(input: {
  publisher: RedisConnection;
  subscriber: RedisConnection;
  channel: string;
  instanceId: string;
  logger: Logger;
}): EventBus {
  const handlers: Array<(event: ClusterEvent) => void> = [];
  const resubscribed: Array<() => void> = [];
  let lostSubscription = false;

  void input.subscriber.subscribe(input.channel).catch((error: unknown) => {
    input.logger.error({ err: error }, 'cluster event subscription failed');
  });
  const onMessage = (channel: string, message: string) => {
    if (channel !== input.channel) return;
    let parsed: { from?: unknown; event?: ClusterEvent };
    try {
      parsed = JSON.parse(message) as { from?: unknown; event?: ClusterEvent };
    } catch {
      return;
    }
    if (parsed.from === input.instanceId || parsed.event === undefined) return;
    for (const handler of handlers) {
      try {
        handler(parsed.event);
      } catch (error) {
        input.logger.error({ err: error, event: parsed.event.type }, 'cluster event handler failed');
      }
    }
  };
  const onClose = () => {
    lostSubscription = true;
  };
  const onReady = () => {
    if (!lostSubscription) return;
    lostSubscription = false;
    // ioredis re-subscribes by itself; whatever was published meanwhile is gone.
    for (const handler of resubscribed) handler();
  };
  input.subscriber.on('message', onMessage);
  input.subscriber.on('close', onClose);
  input.subscriber.on('ready', onReady);

  return {
    async publish(event) {
      try {
        await input.publisher.publish(input.channel, JSON.stringify({ from: input.instanceId, event }));
      } catch (error) {
        input.logger.warn({ err: error, event: event.type }, 'could not tell the other instances (Redis unreachable)');
      }
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    onResubscribed(handler) {
      resubscribed.push(handler);
    },
    async close() {
      input.subscriber.off('message', onMessage);
      input.subscriber.off('close', onClose);
      input.subscriber.off('ready', onReady);
      await input.subscriber.unsubscribe(input.channel).catch(() => undefined);
    },
  };
}
