import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createStore } from '../../src/store/create-store.ts';
import type { StoreHarness } from './store-harness.ts';
import { TEST_SECRET } from './store-harness.ts';

/** A temporary directory per run and a new database file per test. */
export async function createSqliteHarness(): Promise<StoreHarness> {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-store-'));
  let counter = 0;
  let path = join(directory, 'nested', `store-${counter}.db`);

  return {
    dialect: 'sqlite',
    get databaseUrl() {
      return `sqlite:${path}`;
    },
    open: (options = {}) => createStore({ databaseUrl: `sqlite:${path}`, secretKey: options.secretKey ?? TEST_SECRET, now: options.now }),
    async rawQuery(sqlText) {
      const database = new BetterSqlite3(path, { readonly: true });
      try {
        return database.prepare(sqlText).all() as Array<Record<string, unknown>>;
      } finally {
        database.close();
      }
    },
    async reset() {
      counter += 1;
      path = join(directory, 'nested', `store-${counter}.db`);
    },
    async dispose() {
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
