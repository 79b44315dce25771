import { sql, type Transaction } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';
import type { PaymentLedger } from '../payment-ports.ts';
import type { IdPrefix } from '../generate-id.ts';
import { randomBase62 } from '../random-base62.ts';
import { addUserBalance } from './user-repository.ts';
import { insertSubscription } from './subscription-repository.ts';

export function paymentLedger(transaction: Transaction<DatabaseSchema>, time: number, generateId: (prefix: IdPrefix) => string): PaymentLedger {
  return {
    async addUserBalance(userId, deltaMicros) {
      if (deltaMicros === 0) return;
      if (!(await addUserBalance(transaction, userId, deltaMicros, time))) throw new Error(`user ${userId} is gone`);
    },
    async repayDebt(userId, maxMicros) {
      const row = await transaction.selectFrom('account_debts').select('debt_micros').where('user_id', '=', userId).executeTakeFirst();
      const taken = Math.min(Number(row?.debt_micros ?? 0), Math.max(0, maxMicros));
      if (taken > 0) {
        await transaction
          .updateTable('account_debts')
          .set({ debt_micros: sql<number>`debt_micros - ${taken}`, updated_at: time })
          .where('user_id', '=', userId)
          .execute();
      }
      return taken;
    },
    async addDebt(userId, micros) {
      if (micros <= 0) return;
      await transaction
        .insertInto('account_debts')
        .values({ user_id: userId, debt_micros: micros, updated_at: time })
        .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ debt_micros: sql<number>`account_debts.debt_micros + ${micros}`, updated_at: time }))
        .execute();
    },
    createSubscription: (subscription) => insertSubscription(transaction, subscription, time, generateId),
    async createRebate(rebate) {
      await transaction
        .insertInto('referral_rebates')
        .values({
          id: generateId('rb'),
          order_id: rebate.orderId,
          inviter_id: rebate.inviterId,
          invitee_id: rebate.inviteeId,
          amount_micros: rebate.amountMicros,
          clawed_micros: 0,
          status: 'pending',
          release_at: rebate.releaseAt,
          credited_at: null,
          created_at: time,
        })
        .execute();
    },
    async clawRebate(orderId, share) {
      const rebate = await transaction.selectFrom('referral_rebates').selectAll().where('order_id', '=', orderId).executeTakeFirst();
      if (!rebate || rebate.status === 'refused') return undefined;
      const target = Math.round((Number(rebate.amount_micros) * share.refundedMicros) / share.orderMicros);
      const claw = Math.min(target, Number(rebate.amount_micros)) - Number(rebate.clawed_micros);
      if (claw <= 0) return { inviterId: rebate.inviter_id, clawedMicros: 0 };
      const whole = Number(rebate.clawed_micros) + claw === Number(rebate.amount_micros);
      await transaction
        .updateTable('referral_rebates')
        .set({ clawed_micros: sql<number>`clawed_micros + ${claw}`, ...(whole && rebate.status === 'pending' ? { status: 'clawed_back' } : {}) })
        .where('id', '=', rebate.id)
        .execute();
      if (rebate.status === 'credited') {
        const inviter = await transaction.selectFrom('users').select('balance_micros').where('id', '=', rebate.inviter_id).executeTakeFirst();
        const fromWallet = Math.min(claw, Math.max(0, Number(inviter?.balance_micros ?? 0)));
        await this.addUserBalance(rebate.inviter_id, -fromWallet);
        await this.addDebt(rebate.inviter_id, claw - fromWallet);
        await this.note(
          rebate.inviter_id,
          -fromWallet,
          `referral rebate of order ${orderId} clawed back (refund)${claw > fromWallet ? `; ${claw - fromWallet} micro-USD recorded as debt` : ''}`,
        );
      }
      return { inviterId: rebate.inviter_id, clawedMicros: claw };
    },
    async note(userId, amountMicros, note) {
      await transaction
        .insertInto('wallet_adjustments')
        .values({ id: `wadj_${randomBase62(16)}`, user_id: userId, amount_micros: amountMicros, note, balance_after_micros: null, created_at: time })
        .execute();
    },
  };
}
