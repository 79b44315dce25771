import { randomBase62 } from '../random-base62.ts';
import type { StoreContext } from '../store-context.ts';

/** An operator's manual change of a wallet, with the note that says why (the audit trail). */
export interface WalletAdjustment {
  id: string;
  userId: string;
  /** Signed micro-USD. */
  amountMicros: number;
  note: string;
  /** The wallet right after the change, when known. */
  balanceAfterMicros: number | null;
  createdAt: number;
}

export interface WalletAdjustmentRepository {
  record(input: Omit<WalletAdjustment, 'id' | 'createdAt'>): Promise<WalletAdjustment>;
  /** Newest first. */
  listForUser(userId: string, limit?: number): Promise<WalletAdjustment[]>;
}

export function createWalletAdjustmentRepository({ db, now }: StoreContext): WalletAdjustmentRepository {
  return {
    async record(input) {
      const entry: WalletAdjustment = { ...input, id: `wadj_${randomBase62(16)}`, createdAt: now() };
      await db
        .insertInto('wallet_adjustments')
        .values({
          id: entry.id,
          user_id: entry.userId,
          amount_micros: entry.amountMicros,
          note: entry.note,
          balance_after_micros: entry.balanceAfterMicros,
          created_at: entry.createdAt,
        })
        .execute();
      return entry;
    },

    async listForUser(userId, limit = 200) {
      const rows = await db
        .selectFrom('wallet_adjustments')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        userId: row.user_id,
        amountMicros: Number(row.amount_micros),
        note: row.note,
        balanceAfterMicros: row.balance_after_micros === null ? null : Number(row.balance_after_micros),
        createdAt: Number(row.created_at),
      }));
    },
  };
}
