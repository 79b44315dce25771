import { sql, SqliteAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Key names are unique per account, no longer across the gateway (issue 23): with one global
 * name index, an account creating or renaming a key to a name another tenant's key had got an
 * answer that told it so (a cross-tenant name oracle). Now an account's keys have distinct names,
 * and so have the operator's keys (those of no account), which the admin API, CLI and config
 * file name; two accounts may both call a key "laptop".
 *
 * Two partial unique indexes say that in both dialects. Their first column is `name`, so a
 * violation names the `name` column on either driver (see translateConstraintError).
 * PostgreSQL drops the old constraint in place. SQLite cannot drop a table constraint, so the
 * table is rebuilt from its own stored definition minus that one clause (columns that later
 * migrations added are kept as they are), the rows copied, and its indexes re-created.
 */
export const keyNamesPerAccountMigration: Migration = {
  async up(db: Kysely<any>) {
    if (isSqlite(db)) await rebuildSqliteApiKeys(db, (definition) => withoutNameConstraint(definition));
    else await sql`alter table api_keys drop constraint api_keys_name_unique`.execute(db);
    await sql`create unique index api_keys_operator_name_unique on api_keys (name) where user_id is null`.execute(db);
    await sql`create unique index api_keys_account_name_unique on api_keys (name, user_id) where user_id is not null`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop index api_keys_account_name_unique`.execute(db);
    await sql`drop index api_keys_operator_name_unique`.execute(db);
    // Fails, as it should, while two accounts share a key name.
    await sql`create unique index api_keys_name_unique on api_keys (name)`.execute(db);
  },
};

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

const NAME_CONSTRAINT = /,\s*constraint\s+"api_keys_name_unique"\s+unique\s*\(\s*"name"\s*\)/i;

function withoutNameConstraint(definition: string): string {
  if (!NAME_CONSTRAINT.test(definition))
    throw new Error('api_keys has no "api_keys_name_unique" constraint to drop; the table is not as migration 001 made it');
  return definition.replace(NAME_CONSTRAINT, '');
}

/** SQLite's documented way to change a table's constraints: create, copy, drop, rename, re-index. */
async function rebuildSqliteApiKeys(db: Kysely<any>, change: (definition: string) => string): Promise<void> {
  const objects = await sql<{ type: string; sql: string | null }>`select type, sql from sqlite_master where tbl_name = 'api_keys'`.execute(db);
  const table = objects.rows.find((row) => row.type === 'table')?.sql;
  if (!table) throw new Error('api_keys does not exist');
  const indexes = objects.rows.filter((row) => row.type === 'index' && row.sql !== null).map((row) => row.sql as string);
  const rebuilt = change(table).replace(/^CREATE TABLE\s+"api_keys"/i, 'CREATE TABLE "api_keys_rebuild"');
  await sql.raw(rebuilt).execute(db);
  await sql`insert into api_keys_rebuild select * from api_keys`.execute(db);
  await sql`drop table api_keys`.execute(db);
  await sql`alter table api_keys_rebuild rename to api_keys`.execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
}
