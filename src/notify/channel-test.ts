import { randomBytes } from 'node:crypto';
import type { NotificationChannel, NotificationDelivery } from '../domain/notification.ts';
import type { SendNotification } from './send-notification.ts';

/**
 * The "send test" button: one message straight to the channel (not through the outbox), so the
 * operator sees at once whether the address, secret and format are right.
 */
export async function sendTestNotification(
  send: SendNotification,
  channel: NotificationChannel,
  now: number,
  recipient: string | null = null,
): Promise<{ delivered: boolean; error?: string; id: string }> {
  const id = `ntf_test_${randomBytes(9).toString('base64url')}`;
  const payload = JSON.stringify({
    id,
    event: 'test',
    occurredAt: new Date(now).toISOString(),
    data: { message: `A test message for channel "${channel.name}".` },
  });
  const delivery: NotificationDelivery = {
    id,
    ruleId: null,
    channelId: channel.id,
    event: 'test',
    payload,
    recipient,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    createdAt: now,
    sentAt: null,
  };
  try {
    await send(channel, delivery);
    return { delivered: true, id };
  } catch (error) {
    return { delivered: false, error: error instanceof Error ? error.message : String(error), id };
  }
}

/** A signing secret for a webhook channel created without one; shown once, in the create answer. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}
