import { Agent, request } from 'undici';
import type { NotificationChannel, NotificationDelivery } from '../domain/notification.ts';
import { lookupPublicOnly, refusePrivateLiteral } from '../upstream/private-upstream-address.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AdminRepository } from '../store/store.ts';
import { channelRequest } from './channel-request.ts';
import { emailRecipients } from './email-recipients.ts';
import { describeEvent, eventTitle } from './describe-event.ts';

/** The e-mail port: the SMTP settings' mailer (src/mail/), wired in at start-up. */
export type { Mailer };

export interface NotificationSenderOptions {
  now: () => number;
  /** Absent: e-mail channels fail with "no SMTP settings" (and are retried, then dead-lettered). */
  mailer?: Mailer | undefined;
  /** The admins table: e-mail channels addressed to roles are resolved from it at send time. */
  admins?: Pick<AdminRepository, 'list'> | undefined;
  timeoutMs?: number;
  /**
   * Account holders' channels may not reach private, loopback or link-local addresses (a tenant
   * must not probe the operator's network through the gateway); tests of local receivers lift it.
   */
  allowPrivateAccountTargets?: boolean;
}

/** Sends one queued message over its channel; throws (with the reason) when it was not taken. */
export type SendNotification = (channel: NotificationChannel, delivery: NotificationDelivery) => Promise<void>;

export function createNotificationSender(options: NotificationSenderOptions): SendNotification {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const open = new Agent({ connect: { timeout: timeoutMs } });
  const publicOnly = new Agent({ connect: { timeout: timeoutMs, lookup: lookupPublicOnly } });

  return async (channel, delivery) => {
    const envelope = JSON.parse(delivery.payload) as { id: string; event: string; occurredAt: string; data: Record<string, unknown> };
    const text = describeEvent(envelope.event, envelope.data, envelope.occurredAt);
    if (channel.type === 'email') {
      if (!options.mailer) throw new Error('no SMTP settings: set them with PATCH /api/admin/smtp');
      const to = delivery.recipient ?? (await emailRecipients(channel, options.admins)).join(', ');
      if (!to)
        throw new Error(
          channel.roles.length > 0
            ? `no enabled admin with an e-mail address holds the role ${channel.roles.join(' or ')}`
            : 'the e-mail channel has no recipient',
        );
      await options.mailer.send({ to, subject: `[Switchyard] ${eventTitle(envelope.event)}`, text });
      return;
    }
    const outgoing = channelRequest(channel, { id: delivery.id, event: envelope.event, payload: delivery.payload, text }, options.now());
    const guarded = channel.ownerUserId !== null && options.allowPrivateAccountTargets !== true;
    if (guarded) refusePrivateLiteral(new URL(outgoing.url));
    const answer = await request(outgoing.url, {
      method: 'POST',
      headers: outgoing.headers,
      body: outgoing.body,
      dispatcher: guarded ? publicOnly : open,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const body = await answer.body.text();
    const refusal = outgoing.refusal(answer.statusCode, body);
    if (refusal !== undefined) throw new Error(refusal);
  };
}
