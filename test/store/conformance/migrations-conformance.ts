import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { STORE_MIGRATIONS } from '../../../src/store/migrations/migration-provider.ts';
import type { ConformanceContext } from './conformance-context.ts';
import { newChannel, newKey } from './conformance-context.ts';

export function describeMigrations(context: ConformanceContext): void {
  describe('migrations', () => {
    test('reopening runs nothing twice and keeps every record', async () => {
      await context.store.groups.create({ name: 'vip' });
      const channel = await context.store.channels.create(newChannel({ groups: ['vip'] }));
      const key = await context.store.keys.create(newKey({ group: 'vip' }));
      await context.store.close();
      context.store = await context.harness.open({ now: context.clock.now });
      await context.store.close();
      context.store = await context.harness.open({ now: context.clock.now });
      assert.deepEqual(
        (await context.store.groups.list()).map((group) => group.name),
        ['default', 'vip'],
      );
      assert.deepEqual(await context.store.channels.get(channel.id), channel);
      assert.deepEqual(await context.store.keys.get(key.id), key);
      const executed = await context.harness.rawQuery('SELECT name FROM kysely_migration ORDER BY name');
      assert.deepEqual(
        executed.map((row) => row.name),
        Object.keys(STORE_MIGRATIONS).sort(),
      );
    });

    test('the dialect is reported', () => {
      assert.equal(context.store.dialect, context.harness.dialect);
    });
  });
}
