import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertConflict } from './assert-conflict.ts';
import type { ConformanceContext } from './conformance-context.ts';
import { START_TIME } from './conformance-context.ts';

export function describeAdmins(context: ConformanceContext): void {
  describe('admins, console sessions and admin tokens', () => {
    const alice = { name: 'Alice', email: 'Alice@Example.com', role: 'owner' as const, passwordHash: 'scrypt$x' };

    test('create stores name and e-mail lower-cased; find by id, name or e-mail in any case', async () => {
      const created = await context.store.admins.create(alice);
      assert.deepEqual(
        { ...created, id: undefined },
        {
          id: undefined,
          name: 'alice',
          email: 'alice@example.com',
          role: 'owner',
          passwordHash: 'scrypt$x',
          enabled: true,
          createdAt: START_TIME,
          updatedAt: START_TIME,
        },
      );
      assert.match(created.id, /^adm_/);
      for (const reference of [created.id, 'ALICE', ' alice@EXAMPLE.com '])
        assert.equal((await context.store.admins.find(reference))?.id, created.id, reference);
      assert.equal(await context.store.admins.find('bob'), undefined);
    });

    test('a duplicate name or e-mail is a conflict on that field', async () => {
      await context.store.admins.create(alice);
      await assertConflict(context.store.admins.create({ ...alice, email: 'other@example.com' }), 'name');
      await assertConflict(context.store.admins.create({ ...alice, name: 'alice2', email: 'ALICE@example.com' }), 'email');
    });

    test('update and the count of enabled owners; delete ends the sessions', async () => {
      const created = await context.store.admins.create(alice);
      await context.store.admins.create({ name: 'bob', email: 'bob@example.com', role: 'support', passwordHash: 'h' });
      assert.equal(await context.store.admins.countEnabledOwners(), 1);
      context.clock.advance(1000);
      const updated = await context.store.admins.update(created.id, { role: 'auditor', enabled: false });
      assert.equal(updated?.role, 'auditor');
      assert.equal(updated?.enabled, false);
      assert.equal(updated?.updatedAt, START_TIME + 1000);
      assert.equal(await context.store.admins.countEnabledOwners(), 0);
      await context.store.admins.createSession({
        tokenHash: 'h1',
        adminId: created.id,
        csrfToken: 'c',
        clientIp: null,
        createdAt: START_TIME,
        expiresAt: START_TIME + 10_000,
      });
      assert.equal(await context.store.admins.delete(created.id), true);
      assert.equal(await context.store.admins.findSession('h1', START_TIME), undefined);
      assert.equal(await context.store.admins.delete(created.id), false);
    });

    test('a session is found until it expires; deleteSessionsOf ends every session of one admin', async () => {
      const created = await context.store.admins.create(alice);
      const session = { tokenHash: 'h1', adminId: created.id, csrfToken: 'c', clientIp: '203.0.113.9', createdAt: START_TIME, expiresAt: START_TIME + 10_000 };
      await context.store.admins.createSession(session);
      await context.store.admins.createSession({ ...session, tokenHash: 'h2' });
      assert.deepEqual(await context.store.admins.findSession('h1', START_TIME + 9_999), session);
      assert.equal(await context.store.admins.findSession('h1', START_TIME + 10_000), undefined);
      await context.store.admins.deleteSessionsOf(created.id);
      assert.equal(await context.store.admins.findSession('h2', START_TIME), undefined);
    });

    test('a token is found by its hash until it expires, listed, and revoked', async () => {
      const token = await context.store.admins.createToken({ name: 'ci', role: 'auditor', tokenHash: 'th', createdBy: null, expiresAt: START_TIME + 5_000 });
      assert.match(token.id, /^tok_/);
      assert.deepEqual(await context.store.admins.findToken('th', START_TIME), token);
      assert.equal(await context.store.admins.findToken('th', START_TIME + 5_000), undefined);
      assert.deepEqual(await context.store.admins.listTokens(), [token]);
      assert.equal(await context.store.admins.deleteToken(token.id), true);
      assert.deepEqual(await context.store.admins.listTokens(), []);
    });
  });
}
