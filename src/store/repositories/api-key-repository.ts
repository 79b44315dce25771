import type { Insertable, Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { ApiKeysTable } from '../database-schema.ts';
import { requireGroupNames } from '../require-group-names.ts';
import type { ApiKey, ApiKeyPatch, KeyLimits } from '../../domain/api-key.ts';
import type { ApiKeyRepository } from '../store.ts';
import { StoreConflictError } from '../store.ts';
import type { StoreContext } from '../store-context.ts';
import { translateConstraintError } from '../translate-constraint-error.ts';
import { claimBatchOnce } from '../claim-batch-once.ts';

/** Keys must be bound to an existing group (StoreConflictError, field `group`). */
export function createApiKeyRepository({ db, now, generateId }: StoreContext): ApiKeyRepository {
  const conflictMessages = (name: string | undefined, group: string | undefined) => ({
    unique: {
      name: { field: 'name', message: `a key named "${name}" already exists` },
      key_hash: { field: 'keyHash', message: 'that API key is already registered' },
    },
    foreignKey: { field: 'group', message: `unknown group "${group}" or user; create it first` },
  });

  return {
    async list() {
      const rows = await db.selectFrom('api_keys').selectAll().orderBy('name').execute();
      return rows.map(toApiKey);
    },

    async get(id) {
      const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toApiKey(row);
    },

    async getByHash(keyHash) {
      const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
      return row && toApiKey(row);
    },

    async create(key) {
      if (key.name.trim() === '') throw new StoreConflictError('a key needs a name', 'name');
      requireMicros(key.balanceMicros, 'balanceMicros');
      const time = now();
      const row: Insertable<ApiKeysTable> = {
        id: generateId('key'),
        key_hash: key.keyHash,
        key_hint: key.keyHint,
        spent_micros: 0,
        ...(toColumns(key) as Omit<Insertable<ApiKeysTable>, 'id' | 'key_hash' | 'key_hint' | 'created_at' | 'updated_at'>),
        created_at: time,
        updated_at: time,
      };
      try {
        await db.transaction().execute(async (transaction) => {
          await requireGroupNames(transaction, [key.group], 'group');
          await transaction.insertInto('api_keys').values(row).execute();
        });
      } catch (error) {
        throw translateConstraintError(error, conflictMessages(key.name, key.group));
      }
      return toApiKey(row as Selectable<ApiKeysTable>);
    },

    async update(id, patch) {
      if (patch.name !== undefined && patch.name.trim() === '') throw new StoreConflictError('a key needs a name', 'name');
      requireMicros(patch.balanceMicros, 'balanceMicros');
      try {
        return await db.transaction().execute(async (transaction) => {
          const exists = await transaction.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst();
          if (exists === undefined) return undefined;
          if (patch.group !== undefined) await requireGroupNames(transaction, [patch.group], 'group');
          const time = now();
          await transaction
            .updateTable('api_keys')
            // Strictly increasing: the balance's kv account applies a funding change only for a newer version.
            .set({ ...toColumns(patch), updated_at: sql<number>`CASE WHEN updated_at >= ${time} THEN updated_at + 1 ELSE ${time} END` })
            .where('id', '=', id)
            .execute();
          const row = await transaction.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
          return toApiKey(row);
        });
      } catch (error) {
        throw translateConstraintError(error, conflictMessages(patch.name, patch.group));
      }
    },

    async delete(id) {
      const result = await db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Charges for keys that no longer exist are dropped: the key and its balance are gone. */
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
        for (const [keyId, amount] of [...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
          await transaction
            .updateTable('api_keys')
            .set({
              // Settled charges may take the balance below zero; access control refuses the next request.
              balance_micros: sql<number | null>`balance_micros - ${amount}`,
              spent_micros: sql<number>`spent_micros + ${amount}`,
            })
            .where('id', '=', keyId)
            .execute();
        }
      });
    },
  };
}

function toColumns(key: ApiKeyPatch): Updateable<ApiKeysTable> {
  const columns: Updateable<ApiKeysTable> = {};
  if (key.name !== undefined) columns.name = key.name;
  if (key.group !== undefined) columns.group_name = key.group;
  if (key.expiresAt !== undefined) columns.expires_at = key.expiresAt;
  if (key.balanceMicros !== undefined) columns.balance_micros = key.balanceMicros;
  if (key.allowedModels !== undefined) columns.allowed_models = jsonOrNull(key.allowedModels);
  if (key.allowedIps !== undefined) columns.allowed_ips = jsonOrNull(key.allowedIps);
  if (key.enabled !== undefined) columns.enabled = key.enabled ? 1 : 0;
  if (key.limits !== undefined) columns.limits = JSON.stringify(key.limits);
  if (key.userId !== undefined) columns.user_id = key.userId;
  return columns;
}

function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    name: row.name,
    group: row.group_name,
    keyHash: row.key_hash,
    keyHint: row.key_hint,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    balanceMicros: row.balance_micros === null ? null : Number(row.balance_micros),
    spentMicros: Number(row.spent_micros),
    allowedModels: row.allowed_models === null ? null : (JSON.parse(row.allowed_models) as string[]),
    allowedIps: row.allowed_ips === null ? null : (JSON.parse(row.allowed_ips) as string[]),
    enabled: Number(row.enabled) !== 0,
    limits: JSON.parse(row.limits) as KeyLimits,
    // Absent rather than null for a key without a user, as before accounts existed.
    ...(row.user_id ? { userId: row.user_id } : {}),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function jsonOrNull(value: string[] | null): string | null {
  return value === null ? null : JSON.stringify(value);
}

/** Money is integer micro-USD everywhere; a fraction here is a caller's unit mistake. */
function requireMicros(value: number | null | undefined, field: string): void {
  if (value !== null && value !== undefined && !Number.isSafeInteger(value)) {
    throw new TypeError(`${field} must be an integer number of micro-USD, got ${value}`);
  }
}
