import type { ApiKey } from '../domain/api-key.ts';
import { microsToUsd } from '../domain/money.ts';
import type { NotificationEvent } from '../domain/notification.ts';
import type { Plan } from '../domain/plan.ts';
import type { Subscription } from '../domain/subscription.ts';
import type { User } from '../domain/user.ts';
import type { Notifier } from './notifier.ts';

const DAY = 86_400_000;

/** One capped window of a subscription, as its meter reports it. */
export interface QuotaUse {
  window: string;
  usedMicros: number;
  quotaMicros: number | null;
  resetsAt: number | null;
}

/** Where the account scan reads from: the snapshot's records and the meters' live balances. */
export interface AccountSources {
  users(): Iterable<User>;
  keys(): Iterable<ApiKey>;
  /** Active subscriptions with their plans. */
  subscriptions(): Iterable<{ subscription: Subscription; plan: Plan }>;
  walletAvailable(user: User): Promise<number>;
  keyAvailable(key: ApiKey): Promise<number | null>;
  subscriptionUsage(subscription: Subscription, plan: Plan): Promise<QuotaUse[]>;
}

/**
 * Balances, quotas and expiry dates, read periodically by the leader rather than on each request:
 * the hot path stays as it is, and a wallet that drains between two scans alerts at the next one.
 * Only events some rule listens to are looked at.
 */
export async function scanAccounts(sources: AccountSources, notifier: Notifier, now: number): Promise<void> {
  const listens = (event: NotificationEvent) => notifier.hasRules(event);
  if (listens('wallet.low')) {
    for (const user of sources.users()) {
      if (!user.enabled) continue;
      const balance = await sources.walletAvailable(user);
      await notifier.emitNotification('wallet.low', { subject: user.id, userId: user.id, account: user.name, balanceUsd: microsToUsd(balance) }, balance);
    }
  }
  for (const key of sources.keys()) {
    if (!key.enabled) continue;
    if (listens('key.balance_low') && key.balanceMicros !== null) {
      const balance = await sources.keyAvailable(key);
      if (balance !== null) {
        const data = { subject: key.id, userId: key.userId ?? null, key: key.name, balanceUsd: microsToUsd(balance) };
        await notifier.emitNotification('key.balance_low', data, balance);
      }
    }
    if (listens('key.expiring') && key.expiresAt !== null && key.expiresAt > now) {
      const data = { subject: `${key.id}@${key.expiresAt}`, userId: key.userId ?? null, key: key.name, expiresAt: new Date(key.expiresAt).toISOString() };
      await notifier.emitNotification('key.expiring', data, (key.expiresAt - now) / DAY);
    }
  }
  for (const { subscription, plan } of sources.subscriptions()) {
    const about = { userId: subscription.userId, subscription: subscription.id, plan: plan.name };
    if (listens('subscription.expiring') && subscription.expiresAt > now) {
      const data = { ...about, subject: `${subscription.id}@${subscription.expiresAt}`, expiresAt: new Date(subscription.expiresAt).toISOString() };
      await notifier.emitNotification('subscription.expiring', data, (subscription.expiresAt - now) / DAY);
    }
    if (!listens('subscription.quota_80') && !listens('subscription.quota_100')) continue;
    for (const use of await sources.subscriptionUsage(subscription, plan)) {
      if (use.quotaMicros === null || use.quotaMicros <= 0) continue;
      const ratio = use.usedMicros / use.quotaMicros;
      // One alert per window period: the next day's (week's, month's) window is a new subject.
      const data = {
        ...about,
        subject: `${subscription.id}:${use.window}:${use.resetsAt ?? 'term'}`,
        window: use.window,
        usedUsd: microsToUsd(use.usedMicros),
        quotaUsd: microsToUsd(use.quotaMicros),
      };
      await notifier.emitNotification('subscription.quota_80', data, ratio);
      await notifier.emitNotification('subscription.quota_100', data, ratio);
    }
  }
}
