/** PostgreSQL tuning per instance (SQLite ignores it). */
export interface DatabaseSettings {
  /** DATABASE_POOL_SIZE: connections this instance keeps at most. */
  poolSize: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: a statement running longer is cancelled by the server; 0: no limit. */
  statementTimeoutMs: number;
  /** DATABASE_REPLICA_URL: a read replica for the console's heavy reads (logs, usage, exports). */
  replicaUrl?: string | undefined;
}

export const DEFAULT_DATABASE_SETTINGS: DatabaseSettings = { poolSize: 10, statementTimeoutMs: 0 };

export type DatabaseLocation = { dialect: 'sqlite' /** A file path, or `:memory:`. */; path: string } | { dialect: 'postgres'; connectionString: string };

/**
 * `sqlite:<path>` (relative to the working directory; `sqlite::memory:` for a throwaway
 * database) or `postgres://…` / `postgresql://…`.
 */
export function parseDatabaseUrl(databaseUrl: string): DatabaseLocation {
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) {
    return { dialect: 'postgres', connectionString: databaseUrl };
  }
  if (databaseUrl.startsWith('sqlite:')) {
    let path = databaseUrl.slice('sqlite:'.length);
    // Tolerate the URL-looking spelling `sqlite:///abs/path` and `sqlite://rel/path`.
    if (path.startsWith('//')) path = path.slice(2);
    if (path === '') throw new Error('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/switchyard.db');
    return { dialect: 'sqlite', path };
  }
  throw new Error(`DATABASE_URL must start with sqlite:, postgres:// or postgresql:// (got "${databaseUrl.split(':')[0]}:…")`);
}
