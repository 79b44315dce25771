import { Migrator } from 'kysely';
import type { Kysely } from 'kysely';
import { storeMigrationProvider } from './migration-provider.ts';

/**
 * Brings the schema up to date. PostgreSQL serialises concurrent runs with Kysely's advisory
 * lock. SQLite has no such lock across processes: when two processes migrate the same file at
 * once the loser fails on "table already exists" after the winner commits, and its second run
 * then finds nothing left to do.
 */
export async function runMigrations(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  // Unordered: features developed side by side add migrations under their own names, and an
  // existing database must accept one that sorts before a migration it already ran.
  const migrator = new Migrator({ db, provider: storeMigrationProvider, allowUnorderedMigrations: true });
  const attempts = dialect === 'sqlite' ? 2 : 1;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const { error, results } = await migrator.migrateToLatest();
    if (error === undefined) return;
    lastError = error;
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    if (failed !== undefined && error instanceof Error) {
      error.message = `migration ${failed} failed: ${error.message}`;
    }
  }
  throw lastError;
}
