import { sql, type Transaction } from 'kysely';
import type { NewSubscription, Subscription } from '../../domain/subscription.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import type { IdPrefix } from '../generate-id.ts';
import { randomBase62 } from '../random-base62.ts';
import { addUserBalance } from './user-repository.ts';
import { insertSubscription } from './subscription-repository.ts';

/** A held referral rebate to create with the order that earned it. */
export interface NewRebate {
  orderId: string;
  inviterId: string;
  inviteeId: string;
  amountMicros: number;
  releaseAt: number;
}

/**
 * What an order's transition may change, inside the transaction of its conditional write: the
 * wallet, the debt, a subscription, a rebate, and the wallet's audit trail. Only the caller whose
 * write changed the order's row gets one, so each change happens exactly once.
 */
export interface PaymentLedger {
  addUserBalance(userId: string, deltaMicros: number): Promise<void>;
  /** Takes up to `maxMicros` off the account's debt; returns how much it took. */
  repayDebt(userId: string, maxMicros: number): Promise<number>;
  addDebt(userId: string, micros: number): Promise<void>;
  createSubscription(subscription: NewSubscription): Promise<Subscription>;
  createRebate(rebate: NewRebate): Promise<void>;
  /**
   * Claws back the refunded share of the rebate an order earned (after the refund, `refundedMicros`
   * of the order's `orderMicros` are refunded; the rebate keeps the rest): a held rebate shrinks; a credited
   * one is taken from the inviter's wallet as far as its stored balance goes, the rest becomes the
   * inviter's debt. Returns the inviter and the amount clawed (0 when the order earned none).
   */
  clawRebate(orderId: string, share: { refundedMicros: number; orderMicros: number }): Promise<{ inviterId: string; clawedMicros: number } | undefined>;
  /** A line of the wallet's audit trail (amount 0 for a transition that moves no money). */
  note(userId: string, amountMicros: number, note: string): Promise<void>;
}

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
        await this.note(rebate.inviter_id, -fromWallet, `referral rebate of order ${orderId} clawed back (refund)${claw > fromWallet ? `; ${claw - fromWallet} micro-USD recorded as debt` : ''}`);
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
