import type { Logger } from 'pino';
import type { Store } from '../store/store.ts';
import type { SendNotification } from './send-notification.ts';

/** Attempts before a message goes to the dead-letter list. */
export const MAX_DELIVERY_ATTEMPTS = 6;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 3_600_000;
/** A sender owns a claimed row this long; one that dies mid-send leaves it to be retried after. */
const CLAIM_LEASE_MS = 60_000;
const BATCH = 20;

/** Waits before retry n (1-based): 30 s, 2 min, 8 min, 32 min, then hourly. */
export function retryDelayMs(attempt: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 4 ** (attempt - 1));
}

export interface OutboxDispatcher {
  /** Sends what is due now (when this instance leads); resolves when the batch is done. */
  runOnce(): Promise<number>;
  /** Asks for a run soon (a message was just queued). */
  kick(): void;
  stop(): Promise<void>;
}

export interface OutboxDispatcherDeps {
  store: Pick<Store, 'outbox' | 'notifications'>;
  send: SendNotification;
  now: () => number;
  logger: Logger;
  /** Only the leader sends; a claim per row still guards a hand-over between leaders. */
  isLeader: () => boolean;
  /** Poll interval; 0 starts no timer (tests drive runOnce with their clock). */
  intervalMs: number;
}

/** Sends queued messages once each: claim the row, send, then mark it sent or schedule its retry. */
export function startOutboxDispatcher(deps: OutboxDispatcherDeps): OutboxDispatcher {
  let running: Promise<number> | undefined;
  let stopped = false;

  const deliverOne = async (id: string): Promise<boolean> => {
    const now = deps.now();
    if (!(await deps.store.outbox.claim(id, now, CLAIM_LEASE_MS))) return false;
    const delivery = await deps.store.outbox.get(id);
    if (!delivery) return false;
    const channel = await deps.store.notifications.getChannel(delivery.channelId);
    try {
      if (!channel) throw new Error('the channel was deleted');
      await deps.send(channel, delivery);
      await deps.store.outbox.markSent(id, deps.now());
      return true;
    } catch (error) {
      const attempt = delivery.attempts + 1;
      const reason = error instanceof Error ? error.message : String(error);
      const next = channel && attempt < MAX_DELIVERY_ATTEMPTS ? deps.now() + retryDelayMs(attempt) : null;
      await deps.store.outbox.markFailed(id, reason, next);
      deps.logger.warn({ deliveryId: id, channelId: delivery.channelId, attempt, dead: next === null }, `notification not delivered: ${reason}`);
      return false;
    }
  };

  const runBatch = async (): Promise<number> => {
    if (stopped || !deps.isLeader()) return 0;
    let sent = 0;
    for (const delivery of await deps.store.outbox.due(deps.now(), BATCH)) {
      if (await deliverOne(delivery.id)) sent += 1;
    }
    return sent;
  };

  const runOnce = (): Promise<number> => {
    running ??= runBatch()
      .catch((error: unknown) => {
        deps.logger.error({ err: error }, 'the notification outbox could not be read');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const timer = deps.intervalMs > 0 ? setInterval(() => void runOnce(), deps.intervalMs) : undefined;
  timer?.unref();
  return {
    runOnce,
    kick: () => {
      if (deps.intervalMs > 0) setImmediate(() => void runOnce());
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
