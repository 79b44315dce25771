import type { NotificationChannel, NotificationDelivery, NotificationRule } from '../domain/notification.ts';
import { wireThreshold } from '../notify/rule-threshold.ts';

/** A channel as the APIs show it: never the secret, and the address only to its host (chat webhooks' paths are credentials). */
export function notificationChannelView(channel: NotificationChannel) {
  return {
    id: channel.id,
    type: channel.type,
    name: channel.name,
    url: channel.url === null ? null : maskAddress(channel.url),
    hasSecret: channel.secret !== null,
    to: channel.to,
    roles: channel.roles,
    createdAt: new Date(channel.createdAt).toISOString(),
  };
}

export function notificationRuleView(rule: NotificationRule) {
  return {
    id: rule.id,
    event: rule.event,
    threshold: wireThreshold(rule.event, rule.threshold),
    windowSeconds: rule.windowSeconds,
    channels: rule.channels,
    audience: rule.audience,
    enabled: rule.enabled,
    createdAt: new Date(rule.createdAt).toISOString(),
  };
}

export function deliveryView(delivery: NotificationDelivery) {
  return {
    id: delivery.id,
    ruleId: delivery.ruleId,
    channelId: delivery.channelId,
    event: delivery.event,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === 'pending' ? new Date(delivery.nextAttemptAt).toISOString() : null,
    lastError: delivery.lastError,
    createdAt: new Date(delivery.createdAt).toISOString(),
    sentAt: delivery.sentAt === null ? null : new Date(delivery.sentAt).toISOString(),
    body: JSON.parse(delivery.payload) as unknown,
  };
}

function maskAddress(address: string): string {
  try {
    const url = new URL(address);
    return `${url.protocol}//${url.host}/…`;
  } catch {
    return '…';
  }
}
