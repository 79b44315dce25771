import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, UPSTREAM_SECRET, type Harness } from '../helpers/gateway-harness.ts';

describe('admin changes are audited; channels and keys are named by id or name', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  test('every change is stored with who, what, before and after (secrets masked), newest first', async () => {
    const channel = await harness.addChannel({ provider: 'openai', models: ['m1'], name: 'audited' });
    // PATCH by name, as keys and the CLI accept.
    const patched = await harness.admin('PATCH', '/channels/audited', { priority: 5, apiKey: 'sk-rotated-secret-0123456789' });
    assert.equal(patched.id, channel.id);
    assert.equal(patched.priority, 5);
    await harness.admin('POST', '/groups', { name: 'team' });
    await harness.admin('POST', '/keys', { name: 'alice', group: 'team', balance: 5 });
    await harness.admin('PATCH', '/keys/alice', { enabled: false });
    await harness.admin('POST', '/prices', { model: 'm1', input: 1, output: 2 });
    await harness.admin('POST', '/prices', { model: 'm1', input: 1, output: 3 });
    await harness.admin('DELETE', '/channels/audited', undefined, 204);

    const { data } = await harness.admin('GET', '/audit');
    assert.deepEqual(
      data.map((entry: any) => entry.action),
      ['channel.delete', 'price.update', 'price.create', 'key.update', 'key.create', 'group.create', 'channel.update', 'channel.create'],
    );
    const update = data.find((entry: any) => entry.action === 'channel.update');
    assert.equal(update.actor, 'break-glass'); // GATEWAY_ADMIN_TOKEN: no person (issue 29)
    assert.equal(update.clientIp, '127.0.0.1');
    assert.equal(update.targetName, 'audited');
    assert.equal(update.before.priority, 0);
    assert.equal(update.after.priority, 5);
    const keyUpdate = data.find((entry: any) => entry.action === 'key.update');
    assert.deepEqual([keyUpdate.before.enabled, keyUpdate.after.enabled], [true, false]);
    assert.equal(data.find((entry: any) => entry.action === 'price.update').before.output, 2);
    const text = JSON.stringify(data);
    for (const secret of [UPSTREAM_SECRET, 'sk-rotated-secret-0123456789']) assert.ok(!text.includes(secret), 'a secret in the audit log');

    const forChannel = await harness.admin('GET', '/audit?kind=channel&target=audited');
    assert.equal(forChannel.data.length, 3);
    const page = await harness.admin('GET', '/audit?limit=3');
    assert.equal(page.data.length, 3);
    const rest = await harness.admin('GET', `/audit?limit=10&cursor=${encodeURIComponent(page.next)}`);
    assert.deepEqual(
      [...page.data, ...rest.data].map((entry: any) => entry.id),
      data.map((entry: any) => entry.id),
    );
    assert.equal(rest.next, null);
  });

  test('logs filter by key and channel name, and page past the first page without gaps or repeats', async () => {
    await harness.addChannel({ provider: 'openai', models: ['paged'], name: 'pager' });
    const { key } = await harness.addKey({ name: 'bob' });
    harness.simulator.setDefault({ text: 'ok' });
    for (let index = 0; index < 7; index += 1) {
      const response = await fetch(`${harness.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'paged', messages: [{ role: 'user', content: `hi ${index}` }] }),
      });
      assert.equal(response.status, 200);
    }
    const byName = await harness.admin('GET', '/logs?key=bob&channel=pager&limit=100');
    assert.equal(byName.data.length, 7);
    assert.ok(byName.data.every((entry: any) => entry.keyName === 'bob' && entry.channelName === 'pager'));
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: any = await harness.admin('GET', `/logs?key=bob&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.data.map((entry: any) => entry.requestId));
      cursor = page.next;
    }
    assert.deepEqual(
      seen,
      byName.data.map((entry: any) => entry.requestId),
    );
    const bad = await fetch(`${harness.url}/api/admin/logs?cursor=nope`, { headers: { authorization: `Bearer ${'sya-test-admin-token-0123456789'}` } });
    assert.equal(bad.status, 400);
  });
});
