import type { NotificationEvent } from '../domain/notification.ts';

const TITLES: Readonly<Record<NotificationEvent, string>> = {
  'wallet.low': 'Wallet balance is low',
  'key.balance_low': 'Key balance is low',
  'subscription.quota_80': 'Subscription has used 80 % of its quota',
  'subscription.quota_100': 'Subscription has used its whole quota',
  'subscription.expiring': 'Subscription expires soon',
  'key.expiring': 'Key expires soon',
  'channel.down': 'Channel is down (circuit open)',
  'channel.up': 'Channel is back (circuit closed)',
  'channel.error_rate': 'Channel error rate is high',
  'channel.ttfb': 'Channel is slow to answer (time to first byte)',
  'spend.spike': 'Spending is far above usual',
  'order.paid': 'Order paid',
  'order.refunded': 'Order refunded',
  'reconciliation.drift': 'Ledger reconciliation drift',
};

/** The one-line title of an event, for chat messages and e-mail subjects. */
export function eventTitle(event: string): string {
  return TITLES[event as NotificationEvent] ?? event;
}

/** A chat message's text: the title, then one `field: value` line per datum (plain, no markup to escape). */
export function describeEvent(event: string, data: Record<string, unknown>, occurredAt: string): string {
  const lines = [`[Switchyard] ${eventTitle(event)}`, `event: ${event}`, `at: ${occurredAt}`];
  for (const [name, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    lines.push(`${name}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
  return lines.join('\n');
}
