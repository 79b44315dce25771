import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from './database-schema.ts';
import type { SecretBox } from './secret-box.ts';

/**
 * A settings row sealed with the gateway secret, so a changed GATEWAY_SECRET fails at start-up
 * (or at the write), not mid-request. It is written with the first encrypted value a database
 * gets (a channel's upstream keys), not at the first start: a first start that fails on its
 * configuration has encrypted nothing, and the next start may bring another secret.
 */
const SECRET_CHECK_SETTING = 'store.secret-check';
const SECRET_CHECK_PLAINTEXT = 'switchyard';

type Database = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/**
 * At start-up: refuses a secret the database's encrypted values were not sealed with. Without a
 * check row the database holds no channel secrets (or was written before the check moved to the
 * first encrypted value): a channel's sealed keys, if any, are tried instead, and the check is
 * written once they open.
 */
export async function verifySecretAtStart(db: Kysely<DatabaseSchema>, secretBox: SecretBox, now: () => number): Promise<void> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', SECRET_CHECK_SETTING).executeTakeFirst();
  // Throws SecretBoxError ("GATEWAY_SECRET changed? …") when the key differs.
  if (row !== undefined) {
    secretBox.open(row.value);
    return;
  }
  const sealed = await db.selectFrom('channels').select('api_keys_sealed').limit(1).executeTakeFirst();
  if (sealed === undefined) return;
  secretBox.open(sealed.api_keys_sealed);
  await writeCheck(db, secretBox, now);
}

/** Before a value is sealed into the database: the check exists and opens with this secret (written now if it is the first). */
export async function ensureSecretCheck(db: Database, secretBox: SecretBox, now: () => number): Promise<void> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', SECRET_CHECK_SETTING).executeTakeFirst();
  if (row === undefined) await writeCheck(db, secretBox, now);
  else secretBox.open(row.value);
}

async function writeCheck(db: Database, secretBox: SecretBox, now: () => number): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name: SECRET_CHECK_SETTING, value: secretBox.seal(SECRET_CHECK_PLAINTEXT), updated_at: now() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}
