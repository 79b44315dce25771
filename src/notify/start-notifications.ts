import type { Logger } from 'pino';
import type { Store } from '../store/store.ts';
import { createNotifier, type Notifier } from './notifier.ts';
import { startOutboxDispatcher, type OutboxDispatcher } from './outbox-dispatcher.ts';
import { scanAccounts, type AccountSources } from './scan-accounts.ts';
import { scanTraffic, type TrafficSources } from './scan-traffic.ts';
import { createNotificationSender, type Mailer, type SendNotification } from './send-notification.ts';

/** Defaults: the outbox is polled every 2 s, balances and traffic scanned every minute. */
export const DEFAULT_OUTBOX_POLL_MS = 2_000;
export const DEFAULT_SCAN_INTERVAL_MS = 60_000;

export interface NotificationServices {
  notifier: Notifier;
  dispatcher: OutboxDispatcher;
  send: SendNotification;
  /** One scan of balances, quotas, expiry dates and traffic (the leader's timer calls it). */
  scan(): Promise<void>;
  stop(): Promise<void>;
}

export interface NotificationOptions {
  store: Store;
  now: () => number;
  logger: Logger;
  isLeader: () => boolean;
  accounts: AccountSources;
  traffic: Omit<TrafficSources, 'usage'>;
  mailer?: Mailer | undefined;
  /** 0: no timers (tests call `dispatcher.runOnce()` and `scan()` with their clock). */
  outboxPollMs?: number;
  scanIntervalMs?: number;
  allowPrivateAccountTargets?: boolean;
}

/** The notifier, the outbox's sender and the leader's periodic scans, started together. */
export function startNotifications(options: NotificationOptions): NotificationServices {
  const { store, now, logger } = options;
  const send = createNotificationSender({
    now,
    mailer: options.mailer,
    admins: store.admins,
    allowPrivateAccountTargets: options.allowPrivateAccountTargets ?? false,
  });
  const dispatcher = startOutboxDispatcher({
    store,
    send,
    now,
    logger,
    isLeader: options.isLeader,
    intervalMs: options.outboxPollMs ?? DEFAULT_OUTBOX_POLL_MS,
  });
  const notifier = createNotifier({ store, now, logger, queued: () => dispatcher.kick() });

  let scanning = false;
  const scan = async () => {
    if (scanning || !options.isLeader()) return;
    scanning = true;
    try {
      await notifier.reloadRules();
      const at = now();
      await scanAccounts(options.accounts, notifier, at);
      await scanTraffic({ ...options.traffic, usage: store.usage }, notifier, at);
      await store.notifications.pruneClaims(at);
    } catch (error) {
      logger.error({ err: error }, 'the notification scan failed');
    } finally {
      scanning = false;
    }
  };
  const interval = options.scanIntervalMs ?? DEFAULT_SCAN_INTERVAL_MS;
  const timer = interval > 0 ? setInterval(() => void scan(), interval) : undefined;
  timer?.unref();
  return {
    notifier,
    dispatcher,
    send,
    scan,
    async stop() {
      if (timer) clearInterval(timer);
      await dispatcher.stop();
    },
  };
}
