import type { Selectable } from 'kysely';
import type { BillingMode } from '../../domain/billing-mode.ts';
import type { GroupsTable } from '../database-schema.ts';
import { GROUP_FEATURE_CLASSES, type Group, type GroupFeatureClass } from '../../domain/group.ts';
import type { GroupRepository } from '../store.ts';
import { StoreConflictError } from '../store.ts';
import type { StoreContext } from '../store-context.ts';
import { translateConstraintError } from '../translate-constraint-error.ts';

/** Created by the first migration; routing and new keys fall back to it, so it cannot be deleted. */
export const DEFAULT_GROUP = 'default';

/**
 * Deleting a group fails while keys are bound to it (StoreConflictError, field `keys`); channels
 * that serve it simply stop serving it. Renaming one carries its keys, channels and plans along;
 * the usage log keeps the name each request was made under (it is a record of the past).
 */
export function createGroupRepository({ db, now }: StoreContext): GroupRepository {
  return {
    async list() {
      const rows = await db.selectFrom('groups').selectAll().orderBy('name').execute();
      return rows.map(toGroup);
    },

    async get(name) {
      const row = await db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
      return row && toGroup(row);
    },

    async create(group) {
      if (group.name.trim() === '') throw new StoreConflictError('a group needs a name', 'name');
      const row = {
        name: group.name,
        description: group.description ?? '',
        price_multiplier: group.priceMultiplier ?? 1,
        billing: group.billing ?? 'balance',
        allowed_features: JSON.stringify(group.allowedFeatures ?? []),
        created_at: now(),
      };
      try {
        await db.insertInto('groups').values(row).execute();
      } catch (error) {
        throw translateConstraintError(error, {
          unique: { name: { field: 'name', message: `a group named "${group.name}" already exists` } },
        });
      }
      return toGroup(row);
    },

    async update(name, patch) {
      const changes: Partial<Selectable<GroupsTable>> = {};
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.priceMultiplier !== undefined) changes.price_multiplier = patch.priceMultiplier;
      if (patch.billing !== undefined) changes.billing = patch.billing;
      if (patch.allowedFeatures !== undefined) changes.allowed_features = JSON.stringify(patch.allowedFeatures);
      if (Object.keys(changes).length > 0) {
        await db.updateTable('groups').set(changes).where('name', '=', name).execute();
      }
      const row = await db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
      return row && toGroup(row);
    },

    async rename(from, to) {
      if (from === DEFAULT_GROUP) throw new StoreConflictError('the default group cannot be renamed', 'name');
      if (to.trim() === '') throw new StoreConflictError('a group needs a name', 'name');
      return db.transaction().execute(async (transaction) => {
        const row = await transaction.selectFrom('groups').selectAll().where('name', '=', from).executeTakeFirst();
        if (!row) return undefined;
        if (to === from) return toGroup(row);
        // The name is the key the other tables refer to, and their foreign keys do not cascade
        // updates: insert the group under its new name, move every reference, then drop the old row.
        try {
          await transaction
            .insertInto('groups')
            .values({ ...row, name: to })
            .execute();
        } catch (error) {
          throw translateConstraintError(error, {
            unique: { name: { field: 'name', message: `a group named "${to}" already exists` } },
          });
        }
        await transaction.updateTable('channel_groups').set({ group_name: to }).where('group_name', '=', from).execute();
        await transaction.updateTable('api_keys').set({ group_name: to }).where('group_name', '=', from).execute();
        await transaction.updateTable('plans').set({ group_name: to }).where('group_name', '=', from).execute();
        await transaction.deleteFrom('groups').where('name', '=', from).execute();
        return toGroup({ ...row, name: to });
      });
    },

    async delete(name) {
      if (name === DEFAULT_GROUP) {
        throw new StoreConflictError('the default group cannot be deleted', 'name');
      }
      return db.transaction().execute(async (transaction) => {
        const { count } = await transaction
          .selectFrom('api_keys')
          .select((builder) => builder.fn.countAll<number>().as('count'))
          .where('group_name', '=', name)
          .executeTakeFirstOrThrow();
        if (Number(count) > 0) {
          throw new StoreConflictError(`group "${name}" is still used by ${count} key${Number(count) === 1 ? '' : 's'}; move or delete them first`, 'keys');
        }
        const plans = await transaction.selectFrom('plans').select('name').where('group_name', '=', name).execute();
        if (plans.length > 0) {
          throw new StoreConflictError(
            `group "${name}" is still sold by plan${plans.length === 1 ? '' : 's'} ${plans.map((plan) => `"${plan.name}"`).join(', ')}; move or delete them first`,
            'plans',
          );
        }
        await transaction.deleteFrom('channel_groups').where('group_name', '=', name).execute();
        const result = await transaction.deleteFrom('groups').where('name', '=', name).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },
  };
}

function toGroup(row: Omit<Selectable<GroupsTable>, 'billing' | 'allowed_features'> & { billing?: string; allowed_features?: string }): Group {
  return {
    name: row.name,
    description: row.description,
    priceMultiplier: Number(row.price_multiplier),
    billing: (row.billing ?? 'balance') as BillingMode,
    allowedFeatures: readAllowedFeatures(row.allowed_features),
    createdAt: Number(row.created_at),
  };
}

/** The stored list, keeping only classes this version knows (a row written by a newer one allows no more than it understands). */
function readAllowedFeatures(text: string | undefined): GroupFeatureClass[] {
  if (text === undefined || text === '') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? GROUP_FEATURE_CLASSES.filter((known) => parsed.includes(known)) : [];
  } catch {
    return [];
  }
}
