import type { AdminRole } from './admin.ts';

/**
 * The records of notifications (issue 30): where a message goes (a channel), which events send
 * there (a rule), and one queued message (a delivery). Times are epoch ms; money thresholds are
 * micro-USD here and USD on the wire.
 */
export const NOTIFICATION_EVENTS = [
  'wallet.low',
  'key.balance_low',
  'subscription.quota_80',
  'subscription.quota_100',
  'subscription.expiring',
  'key.expiring',
  'channel.down',
  'channel.up',
  'channel.error_rate',
  // Added to the contract: the time-to-first-byte half of "error rate or TTFB past a threshold".
  'channel.ttfb',
  'spend.spike',
  'order.paid',
  'order.refunded',
  'reconciliation.drift',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const NOTIFICATION_CHANNEL_TYPES = ['email', 'webhook', 'slack', 'feishu', 'dingtalk', 'wecom', 'telegram'] as const;
export type NotificationChannelType = (typeof NOTIFICATION_CHANNEL_TYPES)[number];

export type NotificationAudience = 'operator' | 'account';

export interface NotificationChannel {
  id: string;
  /** null: the operator's; else the account holder who made it in the portal. */
  ownerUserId: string | null;
  type: NotificationChannelType;
  name: string;
  /** Webhook address (webhook, slack, feishu, dingtalk, wecom) or the Telegram chat id. */
  url: string | null;
  /** Signing secret or bot token, decrypted; never shown. */
  secret: string | null;
  /** E-mail recipients (comma-separated). */
  to: string | null;
  /** E-mail channels: also every enabled admin holding one of these roles, looked up at send time. */
  roles: AdminRole[];
  createdAt: number;
}
export type NewNotificationChannel = Omit<NotificationChannel, 'id' | 'createdAt' | 'roles'> & { roles?: AdminRole[] };

export interface NotificationRule {
  id: string;
  ownerUserId: string | null;
  event: NotificationEvent;
  /** In the event's unit (micro-USD for money, a ratio for rates, days for expiry); null: the default. */
  threshold: number | null;
  windowSeconds: number | null;
  channels: string[];
  audience: NotificationAudience;
  enabled: boolean;
  createdAt: number;
}
export type NewNotificationRule = Omit<NotificationRule, 'id' | 'createdAt'>;

export type DeliveryStatus = 'pending' | 'sent' | 'dead';

/** One message to one channel; its id is the webhook body's `id`, the same on every retry. */
export interface NotificationDelivery {
  id: string;
  ruleId: string | null;
  channelId: string;
  event: string;
  /** The generic webhook body `{id, event, occurredAt, data}` as JSON text. */
  payload: string;
  /** Where an `account` rule's e-mail goes instead of the channel's `to`. */
  recipient: string | null;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
}
