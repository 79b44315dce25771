import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createStore } from '../../src/store/create-store.ts';
import type { StoreHarness } from './store-harness.ts';
import { TEST_SECRET } from './store-harness.ts';

/** Override with SWITCHYARD_TEST_POSTGRES_URL; the role must be allowed to create databases. */
export const TEST_POSTGRES_URL = process.env.SWITCHYARD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Creates `switchyard_test_<random>` for the run and drops it afterwards; each test starts from an
 * empty `public` schema. An unreachable server is a failure, never a silent skip.
 */
export async function createPostgresHarness(): Promise<StoreHarness> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_POSTGRES_URL} (${(error as Error).message}). The store tests need it: ` +
        'start PostgreSQL with trust auth for the postgres role on 127.0.0.1:5432 (e.g. `pg_ctl start`, or ' +
        '`docker run -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16`), or point ' +
        'SWITCHYARD_TEST_POSTGRES_URL at a server where you may create databases.',
    );
  }
  const databaseName = `switchyard_test_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${databaseName}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${databaseName}`;
  const databaseUrl = url.toString();
  const raw = new pg.Client({ connectionString: databaseUrl });
  await raw.connect();

  return {
    dialect: 'postgres',
    databaseUrl,
    open: (options = {}) => createStore({ databaseUrl, secretKey: options.secretKey ?? TEST_SECRET, now: options.now }),
    async rawQuery(sqlText) {
      const result = await raw.query(sqlText);
      return result.rows as Array<Record<string, unknown>>;
    },
    async reset() {
      await raw.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    },
    async dispose() {
      await raw.end();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    },
  };
}
