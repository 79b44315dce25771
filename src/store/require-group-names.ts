import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from './database-schema.ts';
import { StoreConflictError } from './store.ts';

/**
 * Throws StoreConflictError (field `field`) naming every group that does not exist. Run inside
 * the writing transaction; the foreign keys still catch a group deleted concurrently.
 */
export async function requireGroupNames(db: Kysely<DatabaseSchema> | Transaction<DatabaseSchema>, names: readonly string[], field: string): Promise<void> {
  if (names.length === 0) return;
  const found = await db
    .selectFrom('groups')
    .select('name')
    .where('name', 'in', [...new Set(names)])
    .execute();
  const known = new Set(found.map((row) => row.name));
  const missing = names.filter((name) => !known.has(name));
  if (missing.length > 0) {
    const list = missing.map((name) => `"${name}"`).join(', ');
    throw new StoreConflictError(`unknown group${missing.length > 1 ? 's' : ''} ${list}; create the group first`, field);
  }
}
