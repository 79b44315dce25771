import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { startReceiver, type Receiver } from './notify-fixture.ts';

const PASSWORD = 'correct horse battery';

describe('the alert, announcement and portal APIs', () => {
  let harness: Harness;
  let receiver: Receiver;
  let proKey = '';
  let danaKey = '';

  before(async () => {
    receiver = await startReceiver();
    harness = await startHarness({ notifications: { outboxPollMs: 0, scanIntervalMs: 0 } });
    await harness.admin('POST', '/groups', { name: 'pro' });
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o'], groups: ['default', 'pro'] });
    const dana = await harness.admin('POST', '/users', { name: 'dana', email: 'dana@example.com', password: PASSWORD });
    await harness.admin('POST', '/users', { name: 'erik', email: 'erik@example.com', password: PASSWORD });
    proKey = (await harness.addKey({ group: 'pro' })).key;
    danaKey = (await harness.addKey({ user: dana.id })).key;
  });
  after(async () => {
    await harness.close();
    await receiver.close();
  });

  const portal = async (login: string) => {
    const response = await fetch(`${harness.url}/api/account/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password: PASSWORD }),
    });
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { csrfToken } = (await response.json()) as { csrfToken: string };
    return async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${harness.url}/api/account${path}`, {
        method,
        headers: { cookie, 'x-csrf-token': csrfToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await answer.text();
      return { status: answer.status, body: text === '' ? undefined : JSON.parse(text) };
    };
  };

  test('channels: each type is checked for what it needs; a webhook without a secret gets one, shown once; secrets and addresses stay hidden', async () => {
    await harness.admin('POST', '/notification-channels', { type: 'slack', name: 'x' }, 400);
    await harness.admin('POST', '/notification-channels', { type: 'telegram', name: 'x', secret: 'token' }, 400);
    await harness.admin('POST', '/notification-channels', { type: 'pager', name: 'x', url: 'https://example.com' }, 400);
    await harness.admin('POST', '/notification-channels', { type: 'email', name: 'x', to: 'not-an-address' }, 400);
    await harness.admin('POST', '/notification-channels', { type: 'email', name: 'x', roles: ['cashier'] }, 400);
    await harness.admin('POST', '/notification-channels', { type: 'slack', name: 'x', url: 'https://hooks.example.com/a', roles: ['finance'] }, 400);
    const byRole = await harness.admin('POST', '/notification-channels', { type: 'email', name: 'finance desk', roles: ['finance', 'finance'] }, 201);
    assert.deepEqual(byRole.roles, ['finance']);
    await harness.admin('DELETE', `/notification-channels/${byRole.id}`, undefined, 204);
    const created = await harness.admin('POST', '/notification-channels', { type: 'webhook', name: 'ops', url: `${receiver.url}/hook?token=abc` }, 201);
    assert.match(created.secret, /^whsec_/);
    const listed = await harness.admin('GET', '/notification-channels');
    assert.equal(listed.data.length, 1);
    assert.equal(listed.data[0].hasSecret, true);
    assert.equal(listed.data[0].secret, undefined);
    assert.ok(!JSON.stringify(listed).includes('token=abc'), 'the address is shown to its host only');
    const row = await harness.gateway.store.notifications.getChannel(created.id);
    assert.equal(row?.secret, created.secret);

    const test1 = await harness.admin('POST', `/notification-channels/${created.id}/test`);
    assert.equal(test1.delivered, true);
    const last = receiver.received.at(-1)!;
    assert.equal(JSON.parse(last.body).event, 'test');
    assert.match(String(last.headers['x-switchyard-signature']), /^t=\d+,v1=[0-9a-f]{64}$/);
    receiver.answer = () => ({ status: 500, body: 'no' });
    const test2 = await harness.admin('POST', `/notification-channels/${created.id}/test`);
    assert.equal(test2.delivered, false);
    assert.match(test2.error, /HTTP 500/);
    receiver.answer = () => ({ status: 200, body: '{}' });
  });

  test('rules: events and channels must exist; money thresholds are USD on the wire and micro-USD inside', async () => {
    const [channel] = (await harness.admin('GET', '/notification-channels')).data;
    await harness.admin('POST', '/notification-rules', { event: 'wallet.empty', channels: [channel.id] }, 400);
    await harness.admin('POST', '/notification-rules', { event: 'wallet.low', channels: ['nch_missing'] }, 400);
    await harness.admin('POST', '/notification-rules', { event: 'channel.down', threshold: 3, channels: [channel.id] }, 400);
    const rule = await harness.admin('POST', '/notification-rules', { event: 'wallet.low', threshold: 2.5, channels: [channel.id] }, 201);
    assert.equal(rule.threshold, 2.5);
    assert.equal((await harness.gateway.store.notifications.listRules(null))[0]?.threshold, 2_500_000);
    const events = await harness.admin('GET', '/notification-events');
    assert.deepEqual(
      events.data.find((entry: any) => entry.event === 'wallet.low'),
      { event: 'wallet.low', unit: 'usd', defaultThreshold: 1, defaultWindowSeconds: null, repeatSeconds: 86_400 },
    );
    await harness.admin('DELETE', `/notification-rules/${rule.id}`, undefined, 204);
  });

  test('announcements reach everyone, a group or an account; ended ones are gone', async () => {
    await harness.admin('POST', '/announcements', { title: 'x', body: 'y', audience: 'group:nope' }, 400);
    await harness.admin('POST', '/announcements', { title: 'x', body: 'y', endsAt: '2001-01-01' }, 400);
    await harness.admin('POST', '/announcements', { title: 'Maintenance', body: 'Sunday 02:00 UTC' }, 201);
    await harness.admin('POST', '/announcements', { title: 'Pro news', body: 'faster', audience: 'group:pro', endsAt: Date.now() + 86_400_000 }, 201);
    await harness.admin('POST', '/announcements', { title: 'For Dana', body: 'hello', audience: 'account:dana' }, 201);
    const read = async (key: string) =>
      ((await (await fetch(`${harness.url}/api/announcements`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data.map(
        (entry: any) => entry.title,
      );
    assert.deepEqual((await read(proKey)).sort(), ['Maintenance', 'Pro news']);
    assert.deepEqual((await read(danaKey)).sort(), ['For Dana', 'Maintenance']);
    assert.equal((await fetch(`${harness.url}/api/announcements`)).status, 401);
    const dana = await portal('dana');
    assert.deepEqual((await dana('GET', '/announcements')).body.data.map((entry: any) => entry.title).sort(), ['For Dana', 'Maintenance']);
    const erik = await portal('erik');
    assert.deepEqual(
      (await erik('GET', '/announcements')).body.data.map((entry: any) => entry.title),
      ['Maintenance'],
    );
  });

  test("an account holder's own rules hear only their account; their e-mail goes to their own address; private addresses are refused", async () => {
    const dana = await portal('dana');
    const erik = await portal('erik');
    const email = await dana('POST', '/notification-channels', { type: 'email', name: 'me', to: 'someone-else@example.com' });
    assert.equal(email.status, 201);
    assert.equal(email.body.to, 'dana@example.com');
    const staff = await dana('POST', '/notification-channels', { type: 'email', name: 'staff', roles: ['finance'] });
    assert.equal(staff.status, 400, "an account holder cannot mail the operator's staff");
    const hook = await dana('POST', '/notification-channels', { type: 'webhook', name: 'mine', url: 'http://127.0.0.1:9/x', secret: 's' });
    assert.equal(hook.status, 201);
    assert.equal(
      (await dana('POST', '/notification-rules', { event: 'channel.down', channels: [hook.body.id] })).status,
      400,
      'operator-only events are refused',
    );
    assert.equal(
      (await erik('POST', '/notification-rules', { event: 'wallet.low', channels: [hook.body.id] })).status,
      400,
      "another account's channel is refused",
    );
    assert.equal((await erik('DELETE', `/notification-channels/${hook.body.id}`)).status, 404);
    const rule = await dana('POST', '/notification-rules', { event: 'wallet.low', threshold: 5, channels: [hook.body.id] });
    assert.equal(rule.status, 201);
    assert.equal(rule.body.audience, 'account');
    const test1 = await dana('POST', `/notification-channels/${hook.body.id}/test`);
    assert.equal(test1.body.delivered, false);
    assert.match(test1.body.error, /private|non-public/);

    const users = await harness.gateway.store.users.list();
    const danaId = users.find((user) => user.name === 'dana')!.id;
    const erikId = users.find((user) => user.name === 'erik')!.id;
    const notifier = harness.gateway.notifications.notifier;
    await notifier.emitNotification('wallet.low', { subject: erikId, userId: erikId }, 1_000_000);
    assert.equal((await harness.gateway.store.outbox.list({ limit: 10 })).length, 0, "erik's wallet is not dana's business");
    await notifier.emitNotification('wallet.low', { subject: danaId, userId: danaId }, 1_000_000);
    const queued = await harness.gateway.store.outbox.list({ limit: 10 });
    assert.equal(queued.length, 1);
    assert.equal(queued[0]!.channelId, hook.body.id);
  });
});
