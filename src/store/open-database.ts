import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type PgModule from 'pg';
import { requireOnDemand } from '../core/require-on-demand.ts';
import type { DatabaseSchema } from './database-schema.ts';
import { DEFAULT_DATABASE_SETTINGS, type DatabaseLocation, type DatabaseSettings } from './parse-database-url.ts';

const PG_INT8_OID = 20;
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

export interface OpenedDatabase {
  db: Kysely<DatabaseSchema>;
  /** The raw SQLite handle, for the one hot write that bypasses the query builder (usage logs). */
  sqlite: BetterSqlite3.Database | undefined;
}

/** The one place that knows how each dialect is opened and tuned. */
export function openDatabase(location: DatabaseLocation, settings: DatabaseSettings = DEFAULT_DATABASE_SETTINGS): OpenedDatabase {
  switch (location.dialect) {
    case 'sqlite': {
      if (location.path !== ':memory:') mkdirSync(dirname(resolve(location.path)), { recursive: true });
      const database = new BetterSqlite3(location.path);
      // WAL lets readers run beside the single writer; busy_timeout makes a second process wait
      // for the write lock instead of failing at once; SQLite leaves foreign keys off by default.
      database.pragma('journal_mode = WAL');
      database.pragma('synchronous = NORMAL');
      database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
      database.pragma('foreign_keys = ON');
      return { db: new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database }) }), sqlite: database };
    }
    case 'postgres': {
      const pg = requireOnDemand('pg') as typeof PgModule;
      const pool = new pg.Pool({
        connectionString: location.connectionString,
        max: settings.poolSize,
        // Sent with each connection's start-up, so the server itself cancels a runaway statement.
        ...(settings.statementTimeoutMs > 0 ? { statement_timeout: settings.statementTimeoutMs } : {}),
        // BIGINT columns hold epoch ms and micro-USD, all far below 2^53, so numbers are safe.
        // Set per pool rather than on the global pg.types so nothing else in the process changes.
        types: {
          getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
            oid === PG_INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
        },
      });
      // An idle pooled connection that breaks (the database restarts, the network drops) is
      // reported here; without a listener it would crash the process. The pool replaces it, and
      // the query that next needs the database gets the error instead.
      pool.on('error', () => {});
      // The same for a connection that breaks while checked out between two queries.
      pool.on('connect', (client) => client.on('error', () => {}));
      return { db: new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) }), sqlite: undefined };
    }
    default: {
      const unreachable: never = location;
      return unreachable;
    }
  }
}
