import { sql, type Selectable } from 'kysely';
import type { Withdrawal, WithdrawalStatus } from '../../domain/withdrawal.ts';
import type { ReferralWithdrawalsTable } from '../payout-tables.ts';
import type { WithdrawalChanges, WithdrawalRepository } from '../payment-ports.ts';
import type { StoreContext } from '../store-context.ts';
import { paymentLedger } from './payment-ledger.ts';

export function createWithdrawalRepository({ db, now, generateId }: StoreContext): WithdrawalRepository {
  return {
    async list(query = {}) {
      let select = db.selectFrom('referral_withdrawals').selectAll();
      if (query.userId) select = select.where('user_id', '=', query.userId);
      if (query.status) select = select.where('status', '=', query.status);
      const rows = await select
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.limit ?? 500)
        .execute();
      return rows.map(toWithdrawal);
    },
    async get(id) {
      const row = await db.selectFrom('referral_withdrawals').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toWithdrawal(row);
    },
    async balanceOf(userId) {
      const [earned, code] = await Promise.all([
        db
          .selectFrom('referral_rebates')
          .select(sql<number>`coalesce(sum(amount_micros - clawed_micros), 0)`.as('earned'))
          .where('inviter_id', '=', userId)
          .where('status', '=', 'credited')
          .executeTakeFirst(),
        db.selectFrom('referral_codes').select('withdrawn_micros').where('user_id', '=', userId).executeTakeFirst(),
      ]);
      return { earnedMicros: Number(earned?.earned ?? 0), withdrawnMicros: Number(code?.withdrawn_micros ?? 0) };
    },
    async request(userId, amountMicros, payoutTo) {
      const time = now();
      return db.transaction().execute(async (transaction) => {
        const earned = await transaction
          .selectFrom('referral_rebates')
          .select(sql<number>`coalesce(sum(amount_micros - clawed_micros), 0)`.as('earned'))
          .where('inviter_id', '=', userId)
          .where('status', '=', 'credited')
          .executeTakeFirstOrThrow();
        // The guard: PostgreSQL re-checks it on the row a concurrent request just raised.
        const result = await transaction
          .updateTable('referral_codes')
          .set({ withdrawn_micros: sql<number>`withdrawn_micros + ${amountMicros}` })
          .where('user_id', '=', userId)
          .where(sql<boolean>`withdrawn_micros + ${amountMicros} <= ${Number(earned.earned)}`)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return undefined;
        const row = {
          id: generateId('wd'),
          user_id: userId,
          amount_micros: amountMicros,
          status: 'pending',
          payout_to: payoutTo,
          payout_ref: null,
          reason: null,
          decided_by: null,
          decided_at: null,
          paid_at: null,
          created_at: time,
        };
        await transaction.insertInto('referral_withdrawals').values(row).execute();
        const ledger = paymentLedger(transaction, time, generateId);
        await ledger.addUserBalance(userId, -amountMicros);
        await ledger.note(userId, -amountMicros, `withdrawal ${row.id} requested: held for payout to ${payoutTo}`);
        return toWithdrawal(row);
      });
    },
    async transition(id, from, to, changes, apply) {
      const time = now();
      return db.transaction().execute(async (transaction) => {
        const result = await transaction
          .updateTable('referral_withdrawals')
          .set({ status: to, ...toColumns(changes) })
          .where('id', '=', id)
          .where('status', 'in', [...from])
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return undefined;
        const withdrawal = toWithdrawal(await transaction.selectFrom('referral_withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
        const ledger = paymentLedger(transaction, time, generateId);
        if (to === 'rejected') {
          // The held amount goes back, once: only the caller that changed the row gets here.
          await transaction
            .updateTable('referral_codes')
            .set({ withdrawn_micros: sql<number>`withdrawn_micros - ${withdrawal.amountMicros}` })
            .where('user_id', '=', withdrawal.userId)
            .execute();
          await ledger.addUserBalance(withdrawal.userId, withdrawal.amountMicros);
        }
        await apply?.(withdrawal, ledger);
        return withdrawal;
      });
    },
  };
}

function toColumns(changes: WithdrawalChanges): Partial<ReferralWithdrawalsTable> {
  const columns: Partial<ReferralWithdrawalsTable> = {};
  if (changes.payoutRef !== undefined) columns.payout_ref = changes.payoutRef;
  if (changes.reason !== undefined) columns.reason = changes.reason;
  if (changes.decidedBy !== undefined) columns.decided_by = changes.decidedBy;
  if (changes.decidedAt !== undefined) columns.decided_at = changes.decidedAt;
  if (changes.paidAt !== undefined) columns.paid_at = changes.paidAt;
  return columns;
}

function toWithdrawal(row: Selectable<ReferralWithdrawalsTable>): Withdrawal {
  const optionalNumber = (value: number | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    userId: row.user_id,
    amountMicros: Number(row.amount_micros),
    status: row.status as WithdrawalStatus,
    payoutTo: row.payout_to,
    payoutRef: row.payout_ref,
    reason: row.reason,
    decidedBy: row.decided_by,
    decidedAt: optionalNumber(row.decided_at),
    paidAt: optionalNumber(row.paid_at),
    createdAt: Number(row.created_at),
  };
}
