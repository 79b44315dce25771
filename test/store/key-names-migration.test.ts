import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { createStore } from '../../src/store/create-store.ts';
import { STORE_MIGRATIONS } from '../../src/store/migrations/migration-provider.ts';
import { openDatabase } from '../../src/store/open-database.ts';
import type { DatabaseLocation } from '../../src/store/parse-database-url.ts';
import { TEST_POSTGRES_URL } from './create-postgres-harness.ts';
import { TEST_SECRET } from './store-harness.ts';

const MIGRATION = '011-portal-key-names-per-account';

/**
 * Migration 011 on a database that already holds keys (issue 23): the rows, the secret-hash
 * uniqueness and the other indexes survive; afterwards two accounts may share a key name.
 */
async function upgradeKeepsKeys(location: DatabaseLocation, databaseUrl: string): Promise<void> {
  const { db } = openDatabase(location);
  const earlier = Object.fromEntries(Object.entries(STORE_MIGRATIONS).filter(([name]) => name !== MIGRATION));
  const migrated = await new Migrator({ db, provider: { getMigrations: async () => earlier }, allowUnorderedMigrations: true }).migrateToLatest();
  assert.equal(migrated.error, undefined);
  await sql`insert into users (id, name, email, password_hash, balance_micros, spent_micros, enabled, created_at, updated_at)
    values ('usr_a', 'ann', null, null, 0, 0, 1, 1, 1), ('usr_b', 'ben', null, null, 0, 0, 1, 1, 1)`.execute(db);
  await sql`insert into api_keys (id, name, group_name, key_hash, key_hint, spent_micros, enabled, limits, created_at, updated_at, user_id)
    values ('key_a', 'laptop', 'default', ${'a'.repeat(64)}, 'sk-…aaaa', 7, 1, '{}', 1, 1, 'usr_a')`.execute(db);
  await db.destroy();

  const store = await createStore({ databaseUrl, secretKey: TEST_SECRET });
  try {
    const [kept] = await store.keys.list();
    assert.equal(kept?.id, 'key_a');
    assert.equal(kept?.spentMicros, 7);
    assert.equal(kept?.userId, 'usr_a');
    const twin = await store.keys.create({
      name: 'laptop',
      group: 'default',
      keyHash: 'b'.repeat(64),
      keyHint: 'sk-…bbbb',
      expiresAt: null,
      balanceMicros: null,
      allowedModels: null,
      allowedIps: null,
      enabled: true,
      limits: {},
      userId: 'usr_b',
    });
    assert.equal(twin.name, 'laptop', 'another account may use the name');
    await assert.rejects(
      store.keys.create({
        name: 'other',
        group: 'default',
        keyHash: 'a'.repeat(64),
        keyHint: 'x',
        expiresAt: null,
        balanceMicros: null,
        allowedModels: null,
        allowedIps: null,
        enabled: true,
        limits: {},
        userId: 'usr_b',
      }),
      (error: Error) => error.name === 'StoreConflictError' && /already registered/.test(error.message),
      'a secret hash stays unique',
    );
  } finally {
    await store.close();
  }
}

describe('migration 011: key names per account', { timeout: 60_000 }, () => {
  test('SQLite: an existing database keeps its keys through the table rebuild', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'switchyard-011-'));
    after(() => rmSync(directory, { recursive: true, force: true }));
    const path = join(directory, 'gateway.db');
    await upgradeKeepsKeys({ dialect: 'sqlite', path }, `sqlite:${path}`);
  });

  test('PostgreSQL: an existing database keeps its keys', async () => {
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    const name = `switchyard_test_${randomBytes(6).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = new URL(TEST_POSTGRES_URL);
      url.pathname = `/${name}`;
      await upgradeKeepsKeys({ dialect: 'postgres', connectionString: url.toString() }, url.toString());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
