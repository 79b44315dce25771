import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertConflict } from './assert-conflict.ts';
import type { ConformanceContext } from './conformance-context.ts';
import { START_TIME } from './conformance-context.ts';

export function describePasskeys(context: ConformanceContext): void {
  describe('passkeys', () => {
    const owner = { kind: 'user' as const, id: 'usr_1' };
    const passkey = { credentialId: 'cred-1', owner, name: 'laptop', publicKey: 'pk', counter: 3, transports: ['internal'], backedUp: true };

    test('create, find by credential, list by owner only; a credential registers once', async () => {
      const created = await context.store.passkeys.create(passkey);
      assert.match(created.id, /^pk_/);
      assert.deepEqual({ ...created, id: undefined }, { ...passkey, id: undefined, createdAt: START_TIME, lastUsedAt: null });
      assert.deepEqual(await context.store.passkeys.findByCredentialId('cred-1'), created);
      assert.deepEqual(await context.store.passkeys.list(owner), [created]);
      assert.deepEqual(await context.store.passkeys.list({ kind: 'admin', id: 'usr_1' }), []);
      await assertConflict(context.store.passkeys.create({ ...passkey, owner: { kind: 'admin', id: 'adm_1' } }), 'credentialId');
    });

    test('the counter moves only from the value read (one of two racing sign-ins wins); rename and delete only by the owner', async () => {
      const created = await context.store.passkeys.create(passkey);
      const results = await Promise.all([
        context.store.passkeys.recordUse(created.id, 3, 4, START_TIME + 1),
        context.store.passkeys.recordUse(created.id, 3, 4, START_TIME + 1),
      ]);
      assert.deepEqual(results.sort(), [false, true]);
      const used = await context.store.passkeys.findByCredentialId('cred-1');
      assert.equal(used?.counter, 4);
      assert.equal(used?.lastUsedAt, START_TIME + 1);
      assert.equal(await context.store.passkeys.rename({ kind: 'user', id: 'usr_2' }, created.id, 'stolen'), undefined);
      assert.equal((await context.store.passkeys.rename(owner, created.id, 'old laptop'))?.name, 'old laptop');
      assert.equal(await context.store.passkeys.delete({ kind: 'user', id: 'usr_2' }, created.id), false);
      assert.equal(await context.store.passkeys.delete(owner, created.id), true);
      assert.equal(await context.store.passkeys.findByCredentialId('cred-1'), undefined);
    });
  });
}
