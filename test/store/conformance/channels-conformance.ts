import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertConflict } from './assert-conflict.ts';
import type { ConformanceContext } from './conformance-context.ts';
import { newChannel, START_TIME, UPSTREAM_SECRET } from './conformance-context.ts';
import { TEST_SECRET } from '../store-harness.ts';

export function describeChannels(context: ConformanceContext): void {
  describe('channels', () => {
    test('create returns the whole record with a ch_ id; get and list return the same', async () => {
      const input = newChannel();
      const created = await context.store.channels.create(input);
      assert.match(created.id, /^ch_[0-9A-Za-z]{16}$/);
      assert.deepEqual(created, { ...input, id: created.id, createdAt: START_TIME, updatedAt: START_TIME });
      assert.deepEqual(await context.store.channels.get(created.id), created);
      assert.deepEqual(await context.store.channels.list(), [created]);
      assert.equal(await context.store.channels.get('ch_missing'), undefined);
    });

    test('list is sorted by name and keeps each channel its own groups in the given order', async () => {
      await context.store.groups.create({ name: 'vip' });
      await context.store.groups.create({ name: 'basic' });
      await context.store.channels.create(newChannel({ name: 'zeta', groups: ['vip', 'default', 'basic'] }));
      await context.store.channels.create(newChannel({ name: 'alpha', groups: [] }));
      const channels = await context.store.channels.list();
      assert.deepEqual(
        channels.map((channel) => [channel.name, channel.groups]),
        [
          ['alpha', []],
          ['zeta', ['vip', 'default', 'basic']],
        ],
      );
    });

    test('update changes the given fields, replaces groups and secrets, and bumps updatedAt', async () => {
      await context.store.groups.create({ name: 'vip' });
      const created = await context.store.channels.create(newChannel());
      context.clock.advance(5_000);
      const updated = await context.store.channels.update(created.id, {
        apiKeys: ['sk-new-1', 'sk-new-2'],
        groups: ['vip'],
        enabled: false,
        modelMap: {},
      });
      assert.deepEqual(updated, {
        ...created,
        apiKeys: ['sk-new-1', 'sk-new-2'],
        groups: ['vip'],
        enabled: false,
        modelMap: {},
        updatedAt: START_TIME + 5_000,
      });
      assert.deepEqual(await context.store.channels.get(created.id), updated);
      assert.equal(await context.store.channels.update('ch_missing', { enabled: false }), undefined);
    });

    test('duplicate names conflict on create and on rename', async () => {
      await context.store.channels.create(newChannel({ name: 'one' }));
      const two = await context.store.channels.create(newChannel({ name: 'two' }));
      await assertConflict(context.store.channels.create(newChannel({ name: 'one' })), 'name', /"one" already exists/);
      await assertConflict(context.store.channels.update(two.id, { name: 'one' }), 'name');
      assert.equal((await context.store.channels.get(two.id))?.name, 'two');
    });

    test('an unknown group is a conflict on groups and a failed create leaves nothing behind', async () => {
      await assertConflict(context.store.channels.create(newChannel({ groups: ['default', 'ghost'] })), 'groups', /"ghost"/);
      assert.deepEqual(await context.store.channels.list(), []);
      assert.deepEqual(await context.harness.rawQuery('SELECT * FROM channels'), []);
      assert.deepEqual(await context.harness.rawQuery('SELECT * FROM channel_groups'), []);
    });

    test('a failed update leaves the channel as it was', async () => {
      const created = await context.store.channels.create(newChannel());
      await assertConflict(context.store.channels.update(created.id, { name: 'renamed', groups: ['ghost'] }), 'groups');
      assert.deepEqual(await context.store.channels.get(created.id), created);
    });

    test('delete removes the channel and its group memberships', async () => {
      const created = await context.store.channels.create(newChannel());
      assert.equal(await context.store.channels.delete(created.id), true);
      assert.equal(await context.store.channels.get(created.id), undefined);
      assert.deepEqual(await context.harness.rawQuery('SELECT * FROM channel_groups'), []);
      assert.equal(await context.store.channels.delete(created.id), false);
    });

    test('upstream secrets are encrypted at rest and returned decrypted', async () => {
      const created = await context.store.channels.create(newChannel({ apiKeys: [UPSTREAM_SECRET, 'sk-second-SECRET-77'] }));
      const rows = await context.harness.rawQuery('SELECT * FROM channels');
      assert.equal(rows.length, 1);
      const rawText = JSON.stringify(rows);
      assert.ok(!rawText.includes(UPSTREAM_SECRET), 'the plain upstream secret must not be stored');
      assert.ok(!rawText.includes('sk-second-SECRET-77'));
      assert.match(String(rows[0]!.api_keys_sealed), /^v1:[\w-]+:[\w-]+:[\w-]+$/);
      assert.deepEqual((await context.store.channels.get(created.id))?.apiKeys, [UPSTREAM_SECRET, 'sk-second-SECRET-77']);
    });

    test('reopening with a different gateway secret fails clearly; the right one still decrypts', async () => {
      const created = await context.store.channels.create(newChannel());
      await context.store.close();
      await assert.rejects(
        context.harness.open({ secretKey: Buffer.from('another-secret-entirely-000000000') }),
        /GATEWAY_SECRET changed\? cannot decrypt channel secrets/,
      );
      context.store = await context.harness.open({ secretKey: TEST_SECRET });
      assert.deepEqual((await context.store.channels.get(created.id))?.apiKeys, [UPSTREAM_SECRET]);
    });

    test('a database that holds no encrypted value yet takes another gateway secret (issue 24: a first start that failed on its configuration)', async () => {
      await context.store.close();
      const other = Buffer.from('another-secret-entirely-000000000');
      context.store = await context.harness.open({ secretKey: other });
      await context.store.close();
      // The first encrypted value binds the database to its secret.
      context.store = await context.harness.open({ secretKey: TEST_SECRET });
      const created = await context.store.channels.create(newChannel());
      await context.store.close();
      await assert.rejects(context.harness.open({ secretKey: other }), /GATEWAY_SECRET changed\? cannot decrypt channel secrets/);
      context.store = await context.harness.open({ secretKey: TEST_SECRET });
      assert.deepEqual((await context.store.channels.get(created.id))?.apiKeys, [UPSTREAM_SECRET]);
    });

    test('a process started with another secret before anything was sealed cannot seal into a database bound to the first', async () => {
      const other = await context.harness.open({ secretKey: Buffer.from('another-secret-entirely-000000000') });
      try {
        await context.store.channels.create(newChannel({ name: 'sealed-first' }));
        await assert.rejects(other.channels.create(newChannel({ name: 'sealed-second' })), /GATEWAY_SECRET changed\? cannot decrypt channel secrets/);
        assert.deepEqual(
          (await context.store.channels.list()).map((channel) => channel.name),
          ['sealed-first'],
        );
      } finally {
        await other.close();
      }
    });
  });
}
