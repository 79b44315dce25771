import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertConflict } from './assert-conflict.ts';
import type { ConformanceContext } from './conformance-context.ts';
import { newKey, START_TIME } from './conformance-context.ts';

export function describeKeys(context: ConformanceContext): void {
  describe('api keys', () => {
    test('create returns the whole record with a key_ id and zero spent; get, getByHash and list agree', async () => {
      const input = newKey({
        expiresAt: START_TIME + 86_400_000,
        balanceMicros: 5_000_000,
        allowedModels: ['gpt-4o'],
        allowedIps: ['10.0.0.0/8', '2001:db8::1'],
        limits: { requestsPerMinute: 60, dailySpendMicros: 1_000_000 },
      });
      const created = await context.store.keys.create(input);
      assert.match(created.id, /^key_[0-9A-Za-z]{16}$/);
      assert.deepEqual(created, { ...input, id: created.id, spentMicros: 0, createdAt: START_TIME, updatedAt: START_TIME });
      assert.deepEqual(await context.store.keys.get(created.id), created);
      assert.deepEqual(await context.store.keys.getByHash(input.keyHash), created);
      assert.deepEqual(await context.store.keys.list(), [created]);
      assert.equal(await context.store.keys.get('key_missing'), undefined);
      assert.equal(await context.store.keys.getByHash('f'.repeat(64)), undefined);
    });

    test('null (unlimited) and empty values stay distinct', async () => {
      const unlimited = await context.store.keys.create(newKey({ name: 'u', keyHash: '1'.repeat(64) }));
      const empty = await context.store.keys.create(newKey({ name: 'e', keyHash: '2'.repeat(64), balanceMicros: 0, allowedModels: [], allowedIps: [] }));
      assert.equal((await context.store.keys.get(unlimited.id))?.balanceMicros, null);
      assert.equal((await context.store.keys.get(unlimited.id))?.allowedModels, null);
      const reread = await context.store.keys.get(empty.id);
      assert.equal(reread?.balanceMicros, 0);
      assert.deepEqual(reread?.allowedModels, []);
      assert.deepEqual(reread?.allowedIps, []);
    });

    test('duplicate name and duplicate secret hash are conflicts on their fields', async () => {
      await context.store.keys.create(newKey());
      await assertConflict(context.store.keys.create(newKey({ keyHash: 'b'.repeat(64) })), 'name', /"alice"/);
      await assertConflict(context.store.keys.create(newKey({ name: 'bob' })), 'keyHash');
      assert.equal((await context.store.keys.list()).length, 1);
    });

    test('names are unique within an account and among the operator’s keys, never across accounts (issue 23)', async () => {
      const account = (name: string) => context.store.users.create({ name, email: null, passwordHash: null, balanceMicros: 0, enabled: true });
      const [ann, ben] = [await account('ann'), await account('ben')];
      await context.store.keys.create(newKey({ name: 'laptop', keyHash: '1'.repeat(64), userId: ann.id }));
      await context.store.keys.create(newKey({ name: 'laptop', keyHash: '2'.repeat(64), userId: ben.id }));
      await context.store.keys.create(newKey({ name: 'laptop', keyHash: '3'.repeat(64) }));
      await assertConflict(context.store.keys.create(newKey({ name: 'laptop', keyHash: '4'.repeat(64), userId: ann.id })), 'name', /"laptop"/);
      await assertConflict(context.store.keys.create(newKey({ name: 'laptop', keyHash: '5'.repeat(64) })), 'name', /"laptop"/);
      const desk = await context.store.keys.create(newKey({ name: 'desk', keyHash: '6'.repeat(64), userId: ben.id }));
      await assertConflict(context.store.keys.update(desk.id, { name: 'laptop' }), 'name');
      const renamed = await context.store.keys.create(newKey({ name: 'desk', keyHash: '7'.repeat(64), userId: ann.id }));
      assert.equal(renamed.name, 'desk');
      assert.equal((await context.store.keys.list()).length, 5);
    });

    test('an unknown group is a conflict on group and nothing is stored', async () => {
      await assertConflict(context.store.keys.create(newKey({ group: 'ghost' })), 'group', /"ghost"/);
      assert.deepEqual(await context.harness.rawQuery('SELECT * FROM api_keys'), []);
    });

    test('update changes the given fields and bumps updatedAt; a missing key gives undefined', async () => {
      await context.store.groups.create({ name: 'vip' });
      const created = await context.store.keys.create(newKey({ balanceMicros: 100 }));
      context.clock.advance(1_000);
      const updated = await context.store.keys.update(created.id, {
        group: 'vip',
        balanceMicros: null,
        enabled: false,
        limits: { concurrentRequests: 2 },
        allowedIps: ['192.0.2.1'],
      });
      assert.deepEqual(updated, {
        ...created,
        group: 'vip',
        balanceMicros: null,
        enabled: false,
        limits: { concurrentRequests: 2 },
        allowedIps: ['192.0.2.1'],
        updatedAt: START_TIME + 1_000,
      });
      assert.deepEqual(await context.store.keys.get(created.id), updated);
      assert.equal(await context.store.keys.update('key_missing', { enabled: false }), undefined);
    });

    test('a failed update leaves the key as it was', async () => {
      const created = await context.store.keys.create(newKey());
      await context.store.keys.create(newKey({ name: 'bob', keyHash: 'b'.repeat(64) }));
      await assertConflict(context.store.keys.update(created.id, { group: 'ghost', enabled: false }), 'group');
      await assertConflict(context.store.keys.update(created.id, { name: 'bob', enabled: false }), 'name');
      assert.deepEqual(await context.store.keys.get(created.id), created);
    });

    test('delete reports whether the key existed', async () => {
      const created = await context.store.keys.create(newKey());
      assert.equal(await context.store.keys.delete(created.id), true);
      assert.equal(await context.store.keys.getByHash(created.keyHash), undefined);
      assert.equal(await context.store.keys.delete(created.id), false);
    });

    test('applyCharges debits balances, counts spend, leaves unlimited balances null', async () => {
      const limited = await context.store.keys.create(newKey({ name: 'l', keyHash: '1'.repeat(64), balanceMicros: 1_000 }));
      const unlimited = await context.store.keys.create(newKey({ name: 'u', keyHash: '2'.repeat(64) }));
      await context.store.keys.applyCharges([
        { keyId: limited.id, amountMicros: 300 },
        { keyId: unlimited.id, amountMicros: 50 },
        { keyId: limited.id, amountMicros: 200 },
        { keyId: 'key_deleted_meanwhile', amountMicros: 999 },
      ]);
      const limitedAfter = await context.store.keys.get(limited.id);
      assert.equal(limitedAfter?.balanceMicros, 500);
      assert.equal(limitedAfter?.spentMicros, 500);
      const unlimitedAfter = await context.store.keys.get(unlimited.id);
      assert.equal(unlimitedAfter?.balanceMicros, null);
      assert.equal(unlimitedAfter?.spentMicros, 50);
      await context.store.keys.applyCharges([]);
    });

    test('a charge batch retried under the same id applies once, to keys and wallets alike', async () => {
      // The writer retries a batch whose commit acknowledgement was lost; the id makes that safe.
      const key = await context.store.keys.create(newKey({ name: 'once', keyHash: '3'.repeat(64), balanceMicros: 1_000 }));
      await context.store.keys.applyCharges([{ keyId: key.id, amountMicros: 100 }], 'batch-a');
      await context.store.keys.applyCharges([{ keyId: key.id, amountMicros: 100 }], 'batch-a');
      await context.store.keys.applyCharges([{ keyId: key.id, amountMicros: 10 }], 'batch-b');
      await context.store.keys.applyCharges([{ keyId: key.id, amountMicros: 1 }]);
      await context.store.keys.applyCharges([{ keyId: key.id, amountMicros: 1 }]);
      assert.deepEqual(
        { balance: (await context.store.keys.get(key.id))?.balanceMicros, spent: (await context.store.keys.get(key.id))?.spentMicros },
        { balance: 888, spent: 112 },
      );
      const user = await context.store.users.create({ name: 'once', email: null, passwordHash: null, balanceMicros: 1_000, enabled: true });
      await context.store.users.applyCharges([{ keyId: user.id, amountMicros: 300 }], 'wallet-batch');
      await context.store.users.applyCharges([{ keyId: user.id, amountMicros: 300 }], 'wallet-batch');
      assert.equal((await context.store.users.find(user.id))?.balanceMicros, 700);
      // Pruning forgets old ids only.
      assert.equal(await context.store.appliedBatches.pruneBefore(0), 0);
      assert.ok((await context.store.appliedBatches.pruneBefore(Number.MAX_SAFE_INTEGER)) >= 3);
    });

    test('settled charges may take a balance below zero', async () => {
      const key = await context.store.keys.create(newKey({ balanceMicros: 100 }));
      await context.store.keys.applyCharges([{ keyId: key.id, amountMicros: 250 }]);
      assert.equal((await context.store.keys.get(key.id))?.balanceMicros, -150);
    });

    test('a batch with an invalid charge applies none of it', async () => {
      const key = await context.store.keys.create(newKey({ balanceMicros: 1_000 }));
      await assert.rejects(
        context.store.keys.applyCharges([
          { keyId: key.id, amountMicros: 100 },
          { keyId: key.id, amountMicros: 0.5 },
        ]),
        /integer/,
      );
      const after = await context.store.keys.get(key.id);
      assert.equal(after?.balanceMicros, 1_000);
      assert.equal(after?.spentMicros, 0);
    });

    test('money must be whole micro-USD', async () => {
      await assert.rejects(context.store.keys.create(newKey({ balanceMicros: 1.5 })), /integer/);
    });
  });
}
