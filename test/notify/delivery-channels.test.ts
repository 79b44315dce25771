import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { MAX_DELIVERY_ATTEMPTS } from '../../src/notify/outbox-dispatcher.ts';
import type { Mailer } from '../../src/notify/send-notification.ts';
import { startNotifyRig, startReceiver, type NotifyRig, type Receiver } from './notify-fixture.ts';

const hmac = (key: string, message: string, encoding: 'hex' | 'base64') => createHmac('sha256', key).update(message).digest(encoding);

/** Each channel's published shape and signing rule, checked by receivers written from the services' documentation. */
function checkRequest(path: string, request: { query: URLSearchParams; headers: Record<string, unknown>; body: string }, now: number): string | undefined {
  const body = JSON.parse(request.body) as Record<string, any>;
  switch (path) {
    case '/webhook': {
      const header = String(request.headers['x-switchyard-signature'] ?? '');
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      if (!match) return `bad signature header ${header}`;
      if (Math.abs(Number(match[1]) - now / 1000) > 300) return 'stale timestamp';
      if (hmac('whsec_test', `${match[1]}.${request.body}`, 'hex') !== match[2]) return 'signature mismatch';
      if (!(typeof body.id === 'string' && body.event && body.occurredAt && body.data)) return 'missing fields';
      return undefined;
    }
    case '/slack':
      return typeof body.text === 'string' && body.text.includes('Order paid') ? undefined : 'slack wants {text}';
    case '/feishu': {
      const expected = hmac(`${body.timestamp}\n${'feishu-secret'}`, '', 'base64');
      if (body.sign !== expected) return 'feishu sign mismatch';
      return body.msg_type === 'text' && typeof body.content?.text === 'string' ? undefined : 'feishu wants msg_type text';
    }
    case '/dingtalk': {
      const timestamp = request.query.get('timestamp') ?? '';
      if (Math.abs(Number(timestamp) - now) > 3_600_000) return 'dingtalk timestamp not in ms';
      if (request.query.get('sign') !== hmac('ding-secret', `${timestamp}\n${'ding-secret'}`, 'base64')) return 'dingtalk sign mismatch';
      return body.msgtype === 'text' && typeof body.text?.content === 'string' ? undefined : 'dingtalk wants msgtype text';
    }
    case '/wecom':
      return body.msgtype === 'text' && typeof body.text?.content === 'string' ? undefined : 'wecom wants msgtype text';
    case '/botTG-TOKEN/sendMessage':
      return body.chat_id === '-1001' && typeof body.text === 'string' ? undefined : 'telegram wants chat_id and text';
    default:
      return `unexpected path ${path}`;
  }
}

describe('alert channels against local receivers that check format and signature', () => {
  let receiver: Receiver;
  let smtp: SMTPServer;
  let smtpPort = 0;
  const mails: Array<{ to: string; raw: string }> = [];
  let rig: NotifyRig;
  const refusals: string[] = [];

  before(async () => {
    receiver = await startReceiver();
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
    smtpPort = (smtp.server.address() as AddressInfo).port;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
    const mailer: Mailer = { send: async ({ to, subject, text }) => void (await transport.sendMail({ from: 'alerts@switchyard.test', to, subject, text })) };
    rig = await startNotifyRig({ mailer });
    receiver.answer = (request) => {
      const problem = checkRequest(request.path, request, rig.clock.now());
      if (problem) refusals.push(problem);
      const ok = problem === undefined;
      if (request.path.startsWith('/bot')) return { status: ok ? 200 : 400, body: JSON.stringify({ ok, description: problem }) };
      if (request.path === '/feishu') return { status: 200, body: JSON.stringify({ code: ok ? 0 : 19021, msg: problem ?? 'success' }) };
      if (request.path === '/dingtalk' || request.path === '/wecom')
        return { status: 200, body: JSON.stringify({ errcode: ok ? 0 : 310000, errmsg: problem ?? 'ok' }) };
      return { status: ok ? 200 : 400, body: ok ? 'ok' : problem };
    };
  });
  after(async () => {
    await rig.close();
    await receiver.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  test('one order.paid reaches all seven channel types, each in its own format, signed where the service signs', async () => {
    const base = receiver.url;
    const make = (type: any, extra: Record<string, string | null>) =>
      rig.store.notifications.createChannel({ ownerUserId: null, type, name: type, url: null, secret: null, to: null, ...extra });
    const channels = await Promise.all([
      make('webhook', { url: `${base}/webhook`, secret: 'whsec_test' }),
      make('slack', { url: `${base}/slack` }),
      make('feishu', { url: `${base}/feishu`, secret: 'feishu-secret' }),
      make('dingtalk', { url: `${base}/dingtalk?access_token=abc`, secret: 'ding-secret' }),
      make('wecom', { url: `${base}/wecom?key=abc` }),
      make('telegram', { url: base, secret: 'TG-TOKEN', to: '-1001' }),
      make('email', { to: 'ops@example.com' }),
    ]);
    await rig.store.notifications.createRule({
      ownerUserId: null,
      event: 'order.paid',
      threshold: null,
      windowSeconds: null,
      channels: channels.map((c) => c.id),
      audience: 'operator',
      enabled: true,
    });
    await rig.notifier.reloadRules();
    await rig.notifier.emitNotification('order.paid', { subject: 'ord_1', orderId: 'ord_1', amountUsd: 20 });
    assert.equal(await rig.dispatcher.runOnce(), 7);
    assert.deepEqual(refusals, []);
    assert.deepEqual(receiver.received.map((entry) => entry.path).sort(), ['/botTG-TOKEN/sendMessage', '/dingtalk', '/feishu', '/slack', '/webhook', '/wecom']);
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.to, 'ops@example.com');
    assert.match(mails[0]!.raw, /Subject: \[Switchyard\] Order paid/);
    assert.match(mails[0]!.raw, /orderId: ord_1/);
    const webhook = receiver.received.find((entry) => entry.path === '/webhook')!;
    const body = JSON.parse(webhook.body);
    assert.deepEqual(Object.keys(body), ['id', 'event', 'occurredAt', 'data']);
    assert.equal(body.event, 'order.paid');
    assert.equal(body.data.orderId, 'ord_1');
    assert.equal(webhook.headers['x-switchyard-delivery'], body.id);
  });

  test('a receiver that fails is retried with backoff and the same id; after the last attempt the message is dead-lettered, and a retry revives it', async () => {
    receiver.received.length = 0;
    let failuresLeft = 1;
    const normal = receiver.answer;
    receiver.answer = (request) => (failuresLeft-- > 0 ? { status: 503, body: 'busy' } : normal(request));
    const channel = await rig.store.notifications.createChannel({
      ownerUserId: null,
      type: 'webhook',
      name: 'flaky',
      url: `${receiver.url}/webhook`,
      secret: 'whsec_test',
      to: null,
    });
    const rule = await rig.store.notifications.createRule({
      ownerUserId: null,
      event: 'order.refunded',
      threshold: null,
      windowSeconds: null,
      channels: [channel.id],
      audience: 'operator',
      enabled: true,
    });
    await rig.notifier.reloadRules();
    await rig.notifier.emitNotification('order.refunded', { subject: 'ord_2' });
    assert.equal(await rig.dispatcher.runOnce(), 0);
    const [pending] = await rig.store.outbox.list({ status: 'pending', limit: 10 });
    assert.equal(pending?.attempts, 1);
    assert.equal(pending?.nextAttemptAt, rig.clock.now() + 30_000);
    rig.clock.advance(29_000);
    assert.equal(await rig.dispatcher.runOnce(), 0, 'not before its backoff');
    rig.clock.advance(1_000);
    assert.equal(await rig.dispatcher.runOnce(), 1);
    const ids = receiver.received.map((entry) => JSON.parse(entry.body).id);
    assert.equal(ids.length, 2);
    assert.equal(ids[0], ids[1], 'the retry carries the same id');
    assert.deepEqual(refusals, []);

    // Now a receiver that never recovers.
    receiver.answer = () => ({ status: 500, body: 'down' });
    await rig.notifier.emitNotification('order.refunded', { subject: 'ord_3' });
    for (let attempt = 0; attempt < MAX_DELIVERY_ATTEMPTS; attempt += 1) {
      await rig.dispatcher.runOnce();
      rig.clock.advance(3_600_000);
    }
    const dead = await rig.store.outbox.list({ status: 'dead', limit: 10 });
    assert.equal(dead.length, 1);
    assert.equal(dead[0]!.attempts, MAX_DELIVERY_ATTEMPTS);
    assert.match(dead[0]!.lastError ?? '', /HTTP 500/);
    assert.equal(dead[0]!.ruleId, rule.id);
    receiver.answer = normal;
    assert.equal(await rig.store.outbox.revive(dead[0]!.id, rig.clock.now()), true);
    assert.equal(await rig.dispatcher.runOnce(), 1);
    assert.equal((await rig.store.outbox.get(dead[0]!.id))?.status, 'sent');
    // Sent rows are pruned after their time; nothing else is.
    const before = (await rig.store.outbox.list({ limit: 100 })).length;
    assert.equal(await rig.store.outbox.pruneSentBefore(rig.clock.now() + 1), before);
  });

  test('a chat service that answers 200 with an error code is a failure, not a delivery', async () => {
    const channel = await rig.store.notifications.createChannel({
      ownerUserId: null,
      type: 'feishu',
      name: 'wrong secret',
      url: `${receiver.url}/feishu`,
      secret: 'not-the-secret',
      to: null,
    });
    await rig.store.notifications.createRule({
      ownerUserId: null,
      event: 'reconciliation.drift',
      threshold: null,
      windowSeconds: null,
      channels: [channel.id],
      audience: 'operator',
      enabled: true,
    });
    await rig.notifier.reloadRules();
    refusals.length = 0;
    await rig.notifier.emitNotification('reconciliation.drift', { subject: 'ledger', driftUsd: 3 }, 3_000_000);
    assert.equal(await rig.dispatcher.runOnce(), 0);
    assert.deepEqual(refusals, ['feishu sign mismatch']);
    const [pending] = await rig.store.outbox.list({ status: 'pending', limit: 1 });
    assert.match(pending?.lastError ?? '', /code 19021/);
  });
});

describe('the outbox survives a restart', () => {
  test('a message queued before the process stopped is sent once by the next one', async () => {
    const receiver = await startReceiver();
    const first = await startNotifyRig();
    const channel = await first.store.notifications.createChannel({
      ownerUserId: null,
      type: 'slack',
      name: 'ops',
      url: `${receiver.url}/slack`,
      secret: null,
      to: null,
    });
    await first.store.notifications.createRule({
      ownerUserId: null,
      event: 'order.paid',
      threshold: null,
      windowSeconds: null,
      channels: [channel.id],
      audience: 'operator',
      enabled: true,
    });
    await first.notifier.reloadRules();
    await first.notifier.emitNotification('order.paid', { subject: 'ord_restart' });
    await first.close();

    const second = await startNotifyRig({ path: first.path, clock: first.clock });
    await second.notifier.reloadRules();
    // The restarted process remembers the claim too: the same event raised again is not queued again.
    await second.notifier.emitNotification('order.paid', { subject: 'ord_restart' });
    assert.equal(await second.dispatcher.runOnce(), 1);
    assert.equal(await second.dispatcher.runOnce(), 0);
    assert.equal(receiver.received.length, 1);
    await second.close();
    await receiver.close();
  });
});
