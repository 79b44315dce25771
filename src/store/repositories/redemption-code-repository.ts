import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { RedemptionCode } from '../../domain/redemption-code.ts';
import type { RedemptionCodesTable } from '../database-schema.ts';
import type { AccountsTransaction, RedemptionCodeRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';
import { addUserBalance } from './user-repository.ts';
import { insertSubscription } from './subscription-repository.ts';

/**
 * Single use is decided by the database: one conditional UPDATE (unused and unexpired) marks
 * the code, and only the call whose UPDATE changed the row grants anything, inside the same
 * transaction. Concurrent calls wait on the row lock (PostgreSQL re-checks the condition after
 * the winner commits) or on SQLite's single writer, and see it used.
 */
export function createRedemptionCodeRepository({ db, now, generateId }: StoreContext): RedemptionCodeRepository {
  return {
    async list() {
      return (await db.selectFrom('redemption_codes').selectAll().orderBy('created_at', 'desc').orderBy('id').execute()).map(toCode);
    },

    async createMany(codes) {
      const time = now();
      const rows: Array<Selectable<RedemptionCodesTable>> = codes.map((code) => ({
        id: generateId('rc'),
        code_hash: code.codeHash,
        kind: code.kind,
        amount_micros: code.amountMicros,
        plan_id: code.planId,
        expires_at: code.expiresAt,
        used_at: null,
        used_by_user_id: null,
        used_by_key_id: null,
        created_at: time,
      }));
      if (rows.length > 0) await db.insertInto('redemption_codes').values(rows).execute();
      return rows.map(toCode);
    },

    async findByHash(codeHash) {
      const row = await db.selectFrom('redemption_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
      return row && toCode(row);
    },

    async redeem(codeHash, by, time, grant) {
      return db.transaction().execute(async (transaction) => {
        const result = await transaction
          .updateTable('redemption_codes')
          .set({ used_at: time, used_by_user_id: by.userId, used_by_key_id: by.keyId })
          .where('code_hash', '=', codeHash)
          .where('used_at', 'is', null)
          .where((builder) => builder.or([builder('expires_at', 'is', null), builder('expires_at', '>', time)]))
          .executeTakeFirst();
        const row = await transaction.selectFrom('redemption_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1 || row === undefined) return { redeemed: false as const, code: row && toCode(row) };
        const code = toCode(row);
        const accounts: AccountsTransaction = {
          async addUserBalance(userId, deltaMicros) {
            if (!(await addUserBalance(transaction, userId, deltaMicros, time))) throw new Error(`user ${userId} is gone`);
          },
          async addKeyBalance(keyId, deltaMicros) {
            await transaction
              .updateTable('api_keys')
              .set({
                balance_micros: sql<number>`balance_micros + ${deltaMicros}`,
                updated_at: sql<number>`CASE WHEN updated_at >= ${time} THEN updated_at + 1 ELSE ${time} END`,
              })
              .where('id', '=', keyId)
              .execute();
          },
          createSubscription: (subscription) => insertSubscription(transaction, subscription, time, generateId),
        };
        await grant(code, accounts);
        return { redeemed: true as const, code };
      });
    },
  };
}

function toCode(row: Selectable<RedemptionCodesTable>): RedemptionCode {
  return {
    id: row.id,
    codeHash: row.code_hash,
    kind: row.kind as RedemptionCode['kind'],
    amountMicros: row.amount_micros === null ? null : Number(row.amount_micros),
    planId: row.plan_id,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
    usedByUserId: row.used_by_user_id,
    usedByKeyId: row.used_by_key_id,
    createdAt: Number(row.created_at),
  };
}
