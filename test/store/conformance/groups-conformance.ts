import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertConflict } from './assert-conflict.ts';
import type { ConformanceContext } from './conformance-context.ts';
import { newChannel, newKey, START_TIME } from './conformance-context.ts';

export function describeGroups(context: ConformanceContext): void {
  describe('groups', () => {
    test('the default group exists after the first migration', async () => {
      const groups = await context.store.groups.list();
      assert.deepEqual(
        groups.map((group) => [group.name, group.priceMultiplier]),
        [['default', 1]],
      );
    });

    test('create fills defaults, get and list return it, list is sorted by name', async () => {
      const created = await context.store.groups.create({ name: 'vip', priceMultiplier: 0.8, description: 'VIPs' });
      assert.deepEqual(created, { name: 'vip', description: 'VIPs', priceMultiplier: 0.8, billing: 'balance', allowedFeatures: [], createdAt: START_TIME });
      const plain = await context.store.groups.create({ name: 'basic' });
      assert.deepEqual(plain, { name: 'basic', description: '', priceMultiplier: 1, billing: 'balance', allowedFeatures: [], createdAt: START_TIME });
      assert.deepEqual(await context.store.groups.get('vip'), created);
      assert.equal(await context.store.groups.get('missing'), undefined);
      assert.deepEqual(
        (await context.store.groups.list()).map((group) => group.name),
        ['basic', 'default', 'vip'],
      );
    });

    test('a duplicate name is a conflict on name', async () => {
      await context.store.groups.create({ name: 'vip' });
      await assertConflict(context.store.groups.create({ name: 'vip' }), 'name', /already exists/);
      await assertConflict(context.store.groups.create({ name: 'default' }), 'name');
    });

    test('update changes only the given fields; a missing group gives undefined', async () => {
      await context.store.groups.create({ name: 'vip', description: 'before', priceMultiplier: 2 });
      const updated = await context.store.groups.update('vip', { priceMultiplier: 1.5 });
      assert.deepEqual(updated, { name: 'vip', description: 'before', priceMultiplier: 1.5, billing: 'balance', allowedFeatures: [], createdAt: START_TIME });
      assert.deepEqual(await context.store.groups.get('vip'), updated);
      assert.equal(await context.store.groups.update('missing', { description: 'x' }), undefined);
    });

    test('delete reports whether the group existed', async () => {
      await context.store.groups.create({ name: 'vip' });
      assert.equal(await context.store.groups.delete('vip'), true);
      assert.equal(await context.store.groups.get('vip'), undefined);
      assert.equal(await context.store.groups.delete('vip'), false);
    });

    test('deleting a group that keys still use fails, names the count and keeps the group', async () => {
      await context.store.groups.create({ name: 'vip' });
      await context.store.keys.create(newKey({ name: 'a', group: 'vip', keyHash: '1'.repeat(64) }));
      await context.store.keys.create(newKey({ name: 'b', group: 'vip', keyHash: '2'.repeat(64) }));
      await assertConflict(context.store.groups.delete('vip'), 'keys', /2 keys/);
      assert.ok(await context.store.groups.get('vip'));
      assert.equal((await context.store.keys.list()).length, 2);
    });

    test('deleting a group removes it from the channels that served it', async () => {
      await context.store.groups.create({ name: 'vip' });
      const channel = await context.store.channels.create(newChannel({ groups: ['vip', 'default'] }));
      assert.equal(await context.store.groups.delete('vip'), true);
      assert.deepEqual((await context.store.channels.get(channel.id))?.groups, ['default']);
    });

    test('rename moves the keys, channels and plans to the new name in one step', async () => {
      await context.store.groups.create({ name: 'vip', description: 'VIPs', priceMultiplier: 0.5, billing: 'subscription' });
      const channel = await context.store.channels.create(newChannel({ groups: ['default', 'vip'] }));
      const key = await context.store.keys.create(newKey({ name: 'a', group: 'vip', keyHash: '1'.repeat(64) }));
      const plan = await context.store.plans.create({
        name: 'vip-monthly',
        group: 'vip',
        durationDays: 30,
        quota: { monthly: 1_000_000 },
        priceMicros: null,
        description: '',
      });
      const renamed = await context.store.groups.rename('vip', 'gold');
      assert.deepEqual(renamed, {
        name: 'gold',
        description: 'VIPs',
        priceMultiplier: 0.5,
        billing: 'subscription',
        allowedFeatures: [],
        createdAt: START_TIME,
      });
      assert.equal(await context.store.groups.get('vip'), undefined);
      assert.deepEqual(await context.store.groups.get('gold'), renamed);
      assert.deepEqual((await context.store.channels.get(channel.id))?.groups, ['default', 'gold']);
      assert.equal((await context.store.keys.get(key.id))?.group, 'gold');
      assert.equal((await context.store.plans.find(plan.id))?.group, 'gold');
      assert.equal(await context.store.groups.rename('missing', 'other'), undefined);
    });

    test('rename refuses a name in use and the default group, and changes nothing', async () => {
      await context.store.groups.create({ name: 'vip' });
      await context.store.groups.create({ name: 'gold' });
      await context.store.keys.create(newKey({ name: 'a', group: 'vip', keyHash: '1'.repeat(64) }));
      await assertConflict(context.store.groups.rename('vip', 'gold'), 'name', /already exists/);
      await assertConflict(context.store.groups.rename('default', 'standard'), 'name', /default/);
      assert.equal((await context.store.keys.list())[0]?.group, 'vip');
      assert.deepEqual(
        (await context.store.groups.list()).map((group) => group.name),
        ['default', 'gold', 'vip'],
      );
    });

    test('the default group cannot be deleted', async () => {
      await assertConflict(context.store.groups.delete('default'), 'name', /default/);
      assert.ok(await context.store.groups.get('default'));
    });
  });
}
