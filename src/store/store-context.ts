import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.ts';
import type { IdPrefix } from './generate-id.ts';
import type { SecretBox } from './secret-box.ts';

/** What every repository is built from; time and ids are injected so tests can pin them. */
export interface StoreContext {
  db: Kysely<DatabaseSchema>;
  dialect: 'sqlite' | 'postgres';
  /** The raw SQLite handle (SQLite only), for hot writes that skip the query builder. */
  sqlite: BetterSqlite3.Database | undefined;
  now: () => number;
  generateId: (prefix: IdPrefix) => string;
  secretBox: SecretBox;
}
