import type { Kysely, Selectable, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { User, UserPatch } from '../../domain/user.ts';
import type { DatabaseSchema, UsersTable } from '../database-schema.ts';
import { StoreConflictError, type UserRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';
import { translateConstraintError } from '../translate-constraint-error.ts';
import { claimBatchOnce } from '../claim-batch-once.ts';

/**
 * Users and wallets. `updated_at` is bumped on every change and never repeats (a change in the
 * same millisecond as the last one takes the next millisecond), because the wallet's kv account
 * applies a change of funding (balance + spent) only from a newer version than it has seen.
 */
export function createUserRepository({ db, now, generateId }: StoreContext): UserRepository {
  const conflicts = (name: string | undefined, email: string | null | undefined) => ({
    unique: {
      name: { field: 'name', message: `a user named "${name}" already exists` },
      email: { field: 'email', message: `a user with the email "${email}" already exists` },
    },
  });

  return {
    async list() {
      const rows = await db.selectFrom('users').selectAll().orderBy('name').execute();
      return rows.map(toUser);
    },

    async find(idOrName) {
      const rows = await db
        .selectFrom('users')
        .selectAll()
        .where((builder) => builder.or([builder('id', '=', idOrName), builder('name', '=', idOrName)]))
        .execute();
      // An id wins over a name that happens to look like one.
      const row = rows.find((candidate) => candidate.id === idOrName) ?? rows[0];
      return row && toUser(row);
    },

    async create(user) {
      if (user.name.trim() === '') throw new StoreConflictError('a user needs a name', 'name');
      requireMicros(user.balanceMicros, 'balanceMicros');
      const time = now();
      const row: Selectable<UsersTable> = {
        id: generateId('usr'),
        name: user.name,
        email: user.email ?? null,
        password_hash: user.passwordHash ?? null,
        balance_micros: user.balanceMicros ?? 0,
        spent_micros: 0,
        enabled: user.enabled === false ? 0 : 1,
        created_at: time,
        updated_at: time,
      };
      try {
        await db.insertInto('users').values(row).execute();
      } catch (error) {
        throw translateConstraintError(error, conflicts(user.name, user.email));
      }
      return toUser(row);
    },

    async update(id, patch) {
      if (patch.name !== undefined && patch.name.trim() === '') throw new StoreConflictError('a user needs a name', 'name');
      requireMicros(patch.balanceMicros, 'balanceMicros');
      try {
        return await db.transaction().execute(async (transaction) => {
          const changes = toColumns(patch);
          const result = await transaction
            .updateTable('users')
            .set({ ...changes, updated_at: nextVersion(now()) })
            .where('id', '=', id)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) === 0) return undefined;
          // A new (or removed) password, or a disabled account, ends the account's portal
          // sessions in the same transaction: whoever signed in with the old password (the
          // reason for a reset, often) is out at once, on every path that changes a user
          // (admin API, CLI, config file), not when the 12-hour session runs out.
          if (patch.passwordHash !== undefined || patch.enabled === false) {
            await transaction.deleteFrom('account_sessions').where('user_id', '=', id).execute();
          }
          return toUser(await transaction.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
        });
      } catch (error) {
        throw translateConstraintError(error, conflicts(patch.name, patch.email));
      }
    },

    async addBalance(id, deltaMicros) {
      requireMicros(deltaMicros, 'deltaMicros');
      return db.transaction().execute(async (transaction) => {
        if (!(await addUserBalance(transaction, id, deltaMicros, now()))) return undefined;
        return toUser(await transaction.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
      });
    },

    async delete(id) {
      return db.transaction().execute(async (transaction) => {
        const { count } = await transaction
          .selectFrom('api_keys')
          .select((builder) => builder.fn.countAll<number>().as('count'))
          .where('user_id', '=', id)
          .executeTakeFirstOrThrow();
        if (Number(count) > 0) {
          throw new StoreConflictError(
            `the user still owns ${count} key${Number(count) === 1 ? '' : 's'}; delete them or move them to another user first`,
            'keys',
          );
        }
        const result = await transaction.deleteFrom('users').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },

    /**
     * Does not bump `updated_at`, and keeps balance + spent (the wallet's funding) unchanged:
     * these charges are already counted in the wallet's kv account.
     */
    async applyCharges(charges, batchId) {
      const totals = new Map<string, number>();
      for (const { keyId, amountMicros } of charges) {
        requireMicros(amountMicros, 'amountMicros');
        totals.set(keyId, (totals.get(keyId) ?? 0) + amountMicros);
      }
      if (totals.size === 0) return;
      await db.transaction().execute(async (transaction) => {
        if (!(await claimBatchOnce(transaction, batchId, now()))) return;
        // In id order: instances writing the same rows then lock them in one order, never deadlocking.
        for (const [userId, amount] of [...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
          await transaction
            .updateTable('users')
            .set({ balance_micros: sql<number>`balance_micros - ${amount}`, spent_micros: sql<number>`spent_micros + ${amount}` })
            .where('id', '=', userId)
            .execute();
        }
      });
    },
  };
}

/** A signed top-up in one statement; also bumps the version, so the wallet's kv account applies it as a delta. */
export async function addUserBalance(
  db: Kysely<DatabaseSchema> | Transaction<DatabaseSchema>,
  id: string,
  deltaMicros: number,
  time: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ balance_micros: sql<number>`balance_micros + ${deltaMicros}`, updated_at: nextVersion(time) })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** `now`, or one past the stored version when that is already at or beyond now. */
function nextVersion(time: number) {
  return sql<number>`CASE WHEN updated_at >= ${time} THEN updated_at + 1 ELSE ${time} END`;
}

function toColumns(patch: UserPatch) {
  const columns: Partial<Selectable<UsersTable>> = {};
  if (patch.name !== undefined) columns.name = patch.name;
  if (patch.email !== undefined) columns.email = patch.email;
  if (patch.passwordHash !== undefined) columns.password_hash = patch.passwordHash;
  if (patch.balanceMicros !== undefined) columns.balance_micros = patch.balanceMicros;
  if (patch.enabled !== undefined) columns.enabled = patch.enabled ? 1 : 0;
  return columns;
}

export function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    passwordHash: row.password_hash,
    balanceMicros: Number(row.balance_micros),
    spentMicros: Number(row.spent_micros),
    enabled: Number(row.enabled) !== 0,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function requireMicros(value: number | null | undefined, field: string): void {
  if (value !== null && value !== undefined && !Number.isSafeInteger(value)) {
    throw new TypeError(`${field} must be an integer number of micro-USD, got ${value}`);
  }
}
