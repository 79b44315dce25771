import type { Kysely, Selectable, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { NewSubscription, Subscription } from '../../domain/subscription.ts';
import type { DatabaseSchema, SubscriptionsTable } from '../database-schema.ts';
import type { IdPrefix } from '../generate-id.ts';
import { StoreConflictError, type SubscriptionRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';
import { translateConstraintError } from '../translate-constraint-error.ts';
import { claimBatchOnce } from '../claim-batch-once.ts';

/** Usage charges name their row as `<subscription id> <window>` (a space never occurs in either). */
export function subscriptionUsageId(subscriptionId: string, window: string): string {
  return `${subscriptionId} ${window}`;
}

export function createSubscriptionRepository({ db, now, generateId }: StoreContext): SubscriptionRepository {
  return {
    async list(filter = {}) {
      let select = db.selectFrom('subscriptions').selectAll();
      if (filter.userId !== undefined) select = select.where('user_id', '=', filter.userId);
      return (await select.orderBy('created_at').orderBy('id').execute()).map(toSubscription);
    },

    async get(id) {
      const row = await db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSubscription(row);
    },

    create: (subscription) => insertSubscription(db, subscription, now(), generateId),

    async update(id, patch) {
      const changes: Partial<Selectable<SubscriptionsTable>> = {};
      if (patch.suspended !== undefined) changes.suspended = patch.suspended ? 1 : 0;
      if (patch.expiresAt !== undefined) changes.expires_at = patch.expiresAt;
      const result = await db
        .updateTable('subscriptions')
        .set({ ...changes, updated_at: now() })
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return undefined;
      return toSubscription(await db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    },

    async usage(subscriptionId, windows) {
      if (windows.length === 0) return [];
      const rows = await db
        .selectFrom('subscription_usage')
        .selectAll()
        .where('subscription_id', '=', subscriptionId)
        .where('window_id', 'in', windows)
        .execute();
      return rows.map((row) => ({ subscriptionId: row.subscription_id, window: row.window_id, usedMicros: Number(row.used_micros) }));
    },

    /** Charges for subscriptions deleted meanwhile are dropped, so they cannot block the batch. */
    async applyUsage(charges, batchId) {
      const totals = new Map<string, number>();
      for (const { keyId, amountMicros } of charges) {
        if (!Number.isSafeInteger(amountMicros)) throw new TypeError(`amountMicros must be an integer number of micro-USD, got ${amountMicros}`);
        totals.set(keyId, (totals.get(keyId) ?? 0) + amountMicros);
      }
      const rows = [...totals].flatMap(([id, amount]) => {
        const [subscriptionId, window] = id.split(' ');
        return subscriptionId && window && amount !== 0 ? [{ subscription_id: subscriptionId, window_id: window, used_micros: amount }] : [];
      });
      if (rows.length === 0) return;
      await db.transaction().execute(async (transaction) => {
        if (!(await claimBatchOnce(transaction, batchId, now()))) return;
        const existing = await transaction
          .selectFrom('subscriptions')
          .select('id')
          .where('id', 'in', [...new Set(rows.map((row) => row.subscription_id))])
          .execute();
        const known = new Set(existing.map((row) => row.id));
        for (const row of rows) {
          if (!known.has(row.subscription_id)) continue;
          await transaction
            .insertInto('subscription_usage')
            .values(row)
            .onConflict((conflict) =>
              conflict.columns(['subscription_id', 'window_id']).doUpdateSet({ used_micros: sql<number>`subscription_usage.used_micros + ${row.used_micros}` }),
            )
            .execute();
        }
      });
    },
  };
}

export async function insertSubscription(
  db: Kysely<DatabaseSchema> | Transaction<DatabaseSchema>,
  subscription: NewSubscription,
  time: number,
  generateId: (prefix: IdPrefix) => string,
): Promise<Subscription> {
  if (!(subscription.expiresAt > subscription.startsAt)) {
    throw new StoreConflictError('a subscription must expire after it starts', 'expiresAt');
  }
  const row: Selectable<SubscriptionsTable> = {
    id: generateId('sub'),
    user_id: subscription.userId,
    plan_id: subscription.planId,
    starts_at: subscription.startsAt,
    expires_at: subscription.expiresAt,
    suspended: subscription.suspended ? 1 : 0,
    created_at: time,
    updated_at: time,
  };
  try {
    await db.insertInto('subscriptions').values(row).execute();
  } catch (error) {
    throw translateConstraintError(error, { foreignKey: { field: 'user', message: 'unknown user or plan' } });
  }
  return toSubscription(row);
}

function toSubscription(row: Selectable<SubscriptionsTable>): Subscription {
  return {
    id: row.id,
    userId: row.user_id,
    planId: row.plan_id,
    startsAt: Number(row.starts_at),
    expiresAt: Number(row.expires_at),
    suspended: Number(row.suspended) !== 0,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
