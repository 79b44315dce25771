import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createStore } from '../../src/store/create-store.ts';
import { openDatabase } from '../../src/store/open-database.ts';
import type { Store } from '../../src/store/store.ts';
import { postgresDatabase } from '../helpers/postgres-database.ts';
import { usageEntry } from './conformance/conformance-context.ts';

const secretKey = randomBytes(32);

/**
 * DATABASE_POOL_SIZE and DATABASE_STATEMENT_TIMEOUT_MS reach PostgreSQL; DATABASE_REPLICA_URL
 * serves the console's usage reads and nothing else. The "replica" here is a second database
 * with the same schema, so which one answered is visible.
 */
describe('PostgreSQL settings: pool size, statement timeout, read replica', () => {
  let primary: { url: string; drop: () => Promise<void> };
  let replica: { url: string; drop: () => Promise<void> };
  let store: Store;
  before(async () => {
    [primary, replica] = await Promise.all([postgresDatabase(), postgresDatabase()]);
    await (await createStore({ databaseUrl: replica.url, secretKey })).close();
    store = await createStore({
      databaseUrl: primary.url,
      secretKey,
      database: { poolSize: 3, statementTimeoutMs: 300, replicaUrl: replica.url },
    });
  });
  after(async () => {
    await store?.close();
    await primary?.drop();
    await replica?.drop();
  });

  test('a statement running past the timeout is cancelled by the server', async () => {
    const { db } = openDatabase({ dialect: 'postgres', connectionString: primary.url }, { poolSize: 1, statementTimeoutMs: 300 });
    try {
      await assert.rejects(sql`select pg_sleep(2)`.execute(db), /statement timeout/);
      const shown = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(db);
      assert.equal(shown.rows[0]?.statement_timeout, '300ms');
    } finally {
      await db.destroy();
    }
  });

  test('writes and billing reads go to the primary, the console usage reads to the replica', async () => {
    await store.usage.insertMany([usageEntry({ requestId: 'r-1', keyId: 'key_a', costMicros: 100 })]);
    assert.equal((await store.usage.query({ keyId: 'key_a', limit: 10 })).length, 1);
    assert.ok(store.usageReads);
    assert.equal((await store.usageReads.query({ keyId: 'key_a', limit: 10 })).length, 0, 'the replica has not got the row');
    assert.deepEqual(await store.usageReads.aggregate({ from: 0, to: Date.now() + 86_400_000, by: 'key' }), []);
  });
});
