import type { Selectable } from 'kysely';
import type { Plan, PlanPatch } from '../../domain/plan.ts';
import type { PlansTable } from '../database-schema.ts';
import { requireGroupNames } from '../require-group-names.ts';
import { StoreConflictError, type PlanRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';
import { translateConstraintError } from '../translate-constraint-error.ts';

export function createPlanRepository({ db, now, generateId }: StoreContext): PlanRepository {
  const conflicts = (name: string | undefined, group: string | undefined) => ({
    unique: { name: { field: 'name', message: `a plan named "${name}" already exists` } },
    foreignKey: { field: 'group', message: `unknown group "${group}"; create the group first` },
  });
  return {
    async list() {
      return (await db.selectFrom('plans').selectAll().orderBy('name').execute()).map(toPlan);
    },

    async find(idOrName) {
      const rows = await db
        .selectFrom('plans')
        .selectAll()
        .where((builder) => builder.or([builder('id', '=', idOrName), builder('name', '=', idOrName)]))
        .execute();
      const row = rows.find((candidate) => candidate.id === idOrName) ?? rows[0];
      return row && toPlan(row);
    },

    async create(plan) {
      if (plan.name.trim() === '') throw new StoreConflictError('a plan needs a name', 'name');
      const time = now();
      const row: Selectable<PlansTable> = {
        id: generateId('plan'),
        ...(toColumns(plan) as Omit<Selectable<PlansTable>, 'id' | 'created_at' | 'updated_at'>),
        created_at: time,
        updated_at: time,
      };
      try {
        await db.transaction().execute(async (transaction) => {
          await requireGroupNames(transaction, [plan.group], 'group');
          await transaction.insertInto('plans').values(row).execute();
        });
      } catch (error) {
        throw translateConstraintError(error, conflicts(plan.name, plan.group));
      }
      return toPlan(row);
    },

    async update(id, patch) {
      if (patch.name !== undefined && patch.name.trim() === '') throw new StoreConflictError('a plan needs a name', 'name');
      try {
        return await db.transaction().execute(async (transaction) => {
          if (patch.group !== undefined) await requireGroupNames(transaction, [patch.group], 'group');
          const result = await transaction
            .updateTable('plans')
            .set({ ...toColumns(patch), updated_at: now() })
            .where('id', '=', id)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) === 0) return undefined;
          return toPlan(await transaction.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
        });
      } catch (error) {
        throw translateConstraintError(error, conflicts(patch.name, patch.group));
      }
    },

    /** Subscriptions that ended (expired) go with the plan; live ones (active or suspended) block it. */
    async delete(id, time) {
      return db.transaction().execute(async (transaction) => {
        const { count } = await transaction
          .selectFrom('subscriptions')
          .select((builder) => builder.fn.countAll<number>().as('count'))
          .where('plan_id', '=', id)
          .where('expires_at', '>', time)
          .executeTakeFirstOrThrow();
        if (Number(count) > 0) {
          throw new StoreConflictError(
            `the plan has ${count} subscription${Number(count) === 1 ? '' : 's'} that ha${Number(count) === 1 ? 's' : 've'} not expired; let them expire or shorten them (PATCH /api/admin/subscriptions/:id {expiresAt}) first`,
            'subscriptions',
          );
        }
        await transaction.deleteFrom('subscriptions').where('plan_id', '=', id).execute();
        const result = await transaction.deleteFrom('plans').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },
  };
}

function toColumns(plan: PlanPatch): Partial<Selectable<PlansTable>> {
  const columns: Partial<Selectable<PlansTable>> = {};
  if (plan.name !== undefined) columns.name = plan.name;
  if (plan.group !== undefined) columns.group_name = plan.group;
  if (plan.durationDays !== undefined) columns.duration_days = plan.durationDays;
  if (plan.quota !== undefined) {
    columns.quota_daily_micros = plan.quota.daily ?? null;
    columns.quota_weekly_micros = plan.quota.weekly ?? null;
    columns.quota_monthly_micros = plan.quota.monthly ?? null;
    columns.quota_total_micros = plan.quota.total ?? null;
  }
  if (plan.priceMicros !== undefined) columns.price_micros = plan.priceMicros;
  if (plan.description !== undefined) columns.description = plan.description;
  return columns;
}

function toPlan(row: Selectable<PlansTable>): Plan {
  const quota: Plan['quota'] = {};
  if (row.quota_daily_micros !== null) quota.daily = Number(row.quota_daily_micros);
  if (row.quota_weekly_micros !== null) quota.weekly = Number(row.quota_weekly_micros);
  if (row.quota_monthly_micros !== null) quota.monthly = Number(row.quota_monthly_micros);
  if (row.quota_total_micros !== null) quota.total = Number(row.quota_total_micros);
  return {
    id: row.id,
    name: row.name,
    group: row.group_name,
    durationDays: Number(row.duration_days),
    quota,
    priceMicros: row.price_micros === null ? null : Number(row.price_micros),
    description: row.description,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
