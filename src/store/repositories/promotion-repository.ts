import { sql } from 'kysely';
import type { PromotionCode, PromotionRepository } from '../payment-ports.ts';
import type { StoreContext } from '../store-context.ts';

export function createPromotionRepository({ db, now }: StoreContext): PromotionRepository {
  const toCode = (row: {
    code: string;
    kind: string;
    value: number;
    usage_limit: number | null;
    used_count: number;
    expires_at: number | null;
    created_at: number;
  }): PromotionCode => ({
    code: row.code,
    kind: row.kind as PromotionCode['kind'],
    value: Number(row.value),
    usageLimit: row.usage_limit === null ? null : Number(row.usage_limit),
    usedCount: Number(row.used_count),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdAt: Number(row.created_at),
  });
  return {
    async list() {
      return (await db.selectFrom('promotion_codes').selectAll().orderBy('created_at', 'desc').execute()).map(toCode);
    },
    async find(code) {
      const row = await db.selectFrom('promotion_codes').selectAll().where('code', '=', code).executeTakeFirst();
      return row && toCode(row);
    },
    async create(code) {
      const result = await db
        .insertInto('promotion_codes')
        .values({
          code: code.code,
          kind: code.kind,
          value: code.value,
          usage_limit: code.usageLimit,
          used_count: 0,
          expires_at: code.expiresAt,
          created_at: now(),
        })
        .onConflict((conflict) => conflict.column('code').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async delete(code) {
      return Number((await db.deleteFrom('promotion_codes').where('code', '=', code).executeTakeFirst()).numDeletedRows) > 0;
    },
    async consume(code, userId, orderId, time) {
      try {
        return await db.transaction().execute(async (transaction) => {
          const taken = await transaction
            .updateTable('promotion_codes')
            .set({ used_count: sql<number>`used_count + 1` })
            .where('code', '=', code)
            .where((builder) => builder.or([builder('usage_limit', 'is', null), builder('used_count', '<', builder.ref('usage_limit'))]))
            .where((builder) => builder.or([builder('expires_at', 'is', null), builder('expires_at', '>', time)]))
            .executeTakeFirst();
          if (Number(taken.numUpdatedRows) !== 1) throw new Refused('exhausted');
          const used = await transaction
            .insertInto('promotion_uses')
            .values({ code, user_id: userId, order_id: orderId, created_at: time })
            .onConflict((conflict) => conflict.columns(['code', 'user_id']).doNothing())
            .executeTakeFirst();
          if (Number(used.numInsertedOrUpdatedRows ?? 0) !== 1) throw new Refused('used_by_account');
          return undefined;
        });
      } catch (error) {
        if (error instanceof Refused) return error.reason;
        throw error;
      }
    },
  };
}

/** Rolls the transaction back with the reason of the refusal. */
class Refused extends Error {
  constructor(readonly reason: 'used_by_account' | 'exhausted') {
    super(reason);
  }
}
