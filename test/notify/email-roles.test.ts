import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import type { Mailer } from '../../src/notify/send-notification.ts';
import { startNotifyRig, type NotifyRig } from './notify-fixture.ts';

/** E-mail alerts addressed to operators by role, resolved from the admins table when sent, through a real SMTP server. */
describe('e-mail channels addressed to admin roles', () => {
  let smtp: SMTPServer;
  const mails: Array<{ to: string; raw: string }> = [];
  let rig: NotifyRig;

  before(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((entry) => entry.address).join(','), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    const mailer: Mailer = { send: async ({ to, subject, text }) => void (await transport.sendMail({ from: 'alerts@switchyard.test', to, subject, text })) };
    rig = await startNotifyRig({ mailer });
  });
  after(async () => {
    await rig.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  test('an e-mail channel addressed to the finance role reaches every enabled finance admin, looked up when the message is sent', async () => {
    const admin = (name: string, role: 'finance' | 'support') =>
      rig.store.admins.create({ name, email: `${name}@ops.example.com`, role, passwordHash: 'scrypt$x' });
    await admin('fay', 'finance');
    const gone = await admin('gus', 'finance');
    await admin('sam', 'support');
    const channel = await rig.store.notifications.createChannel({
      ownerUserId: null,
      type: 'email',
      name: 'finance desk',
      url: null,
      secret: null,
      to: 'books@example.com, FAY@ops.example.com',
      roles: ['finance'],
    });
    assert.deepEqual((await rig.store.notifications.getChannel(channel.id))?.roles, ['finance']);
    await rig.store.notifications.createRule({
      ownerUserId: null,
      event: 'order.refunded',
      threshold: null,
      windowSeconds: null,
      channels: [channel.id],
      audience: 'operator',
      enabled: true,
    });
    await rig.notifier.reloadRules();
    await rig.notifier.emitNotification('order.refunded', { subject: 'ord_role', orderId: 'ord_role', amountUsd: 5 });
    // Between queueing and sending: a finance admin joins, another is disabled.
    await admin('hal', 'finance');
    await rig.store.admins.update(gone.id, { enabled: false });
    await rig.dispatcher.runOnce();
    assert.equal(mails.length, 1);
    assert.deepEqual(mails[0]!.to.toLowerCase().split(',').sort(), ['books@example.com', 'fay@ops.example.com', 'hal@ops.example.com'].sort());
    assert.match(mails[0]!.raw, /Subject: \[Switchyard\] Order refunded/);
    assert.match(mails[0]!.raw, /orderId: ord_role/);
  });

  test('a role nobody holds is a failure with the reason, kept for retry, not a silent drop', async () => {
    const channel = await rig.store.notifications.createChannel({
      ownerUserId: null,
      type: 'email',
      name: 'auditors',
      url: null,
      secret: null,
      to: null,
      roles: ['auditor'],
    });
    await rig.store.notifications.createRule({
      ownerUserId: null,
      event: 'order.paid',
      threshold: null,
      windowSeconds: null,
      channels: [channel.id],
      audience: 'operator',
      enabled: true,
    });
    await rig.notifier.reloadRules();
    await rig.notifier.emitNotification('order.paid', { subject: 'ord_nobody' });
    await rig.dispatcher.runOnce();
    const failed = (await rig.store.outbox.list({ status: 'pending', limit: 50 })).find((row) => row.channelId === channel.id);
    assert.match(failed?.lastError ?? '', /no enabled admin with an e-mail address holds the role auditor/);
  });
});
