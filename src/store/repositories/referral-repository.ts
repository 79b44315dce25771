import type { Selectable } from 'kysely';
import type { ReferralRebatesTable } from '../database-schema.ts';
import { randomBase62 } from '../random-base62.ts';
import type { RebateStatus, ReferralRebate, ReferralRepository } from '../payment-ports.ts';
import type { StoreContext } from '../store-context.ts';
import { paymentLedger } from './payment-ledger.ts';

export function createReferralRepository({ db, now, generateId }: StoreContext): ReferralRepository {
  return {
    async codeOf(userId) {
      const existing = await db.selectFrom('referral_codes').select(['code', 'rate_percent']).where('user_id', '=', userId).executeTakeFirst();
      if (existing) return { code: existing.code, ratePercent: existing.rate_percent === null ? null : Number(existing.rate_percent) };
      await db
        .insertInto('referral_codes')
        .values({ user_id: userId, code: randomBase62(10), rate_percent: null, device_fingerprint: null, created_at: now() })
        .onConflict((conflict) => conflict.column('user_id').doNothing())
        .execute();
      return this.codeOf(userId);
    },
    async findCode(code) {
      const row = await db.selectFrom('referral_codes').select(['user_id', 'rate_percent', 'device_fingerprint']).where('code', '=', code).executeTakeFirst();
      return (
        row && { userId: row.user_id, ratePercent: row.rate_percent === null ? null : Number(row.rate_percent), deviceFingerprint: row.device_fingerprint }
      );
    },
    async noteDevice(userId, fingerprint) {
      await this.codeOf(userId);
      await db.updateTable('referral_codes').set({ device_fingerprint: fingerprint }).where('user_id', '=', userId).execute();
    },
    async setRateOverride(userId, ratePercent) {
      await this.codeOf(userId);
      await db.updateTable('referral_codes').set({ rate_percent: ratePercent }).where('user_id', '=', userId).execute();
    },
    async attach(inviteeId, inviterId, fingerprint) {
      const result = await db
        .insertInto('referrals')
        .values({ invitee_id: inviteeId, inviter_id: inviterId, fingerprint, created_at: now() })
        .onConflict((conflict) => conflict.column('invitee_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async inviterOf(inviteeId) {
      const row = await db.selectFrom('referrals').select(['inviter_id', 'fingerprint']).where('invitee_id', '=', inviteeId).executeTakeFirst();
      return row && { inviterId: row.inviter_id, fingerprint: row.fingerprint };
    },
    async invitesOf(inviterId) {
      const rows = await db
        .selectFrom('referrals')
        .select(['invitee_id', 'created_at'])
        .where('inviter_id', '=', inviterId)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((row) => ({ inviteeId: row.invitee_id, createdAt: Number(row.created_at) }));
    },
    async rebatesOf(inviterId) {
      const rows = await db.selectFrom('referral_rebates').selectAll().where('inviter_id', '=', inviterId).orderBy('created_at', 'desc').execute();
      return rows.map(toRebate);
    },
    async payerFingerprintsOf(userId) {
      const rows = await db
        .selectFrom('payment_orders')
        .select('payer_fingerprint')
        .where('user_id', '=', userId)
        .where('payer_fingerprint', 'is not', null)
        .execute();
      return rows.map((row) => row.payer_fingerprint as string);
    },
    async releaseDue(time, limit = 200) {
      const due = await db.selectFrom('referral_rebates').selectAll().where('status', '=', 'pending').where('release_at', '<=', time).limit(limit).execute();
      const credited: string[] = [];
      for (const rebate of due) {
        const won = await db.transaction().execute(async (transaction) => {
          const result = await transaction
            .updateTable('referral_rebates')
            .set({ status: 'credited', credited_at: time })
            .where('id', '=', rebate.id)
            .where('status', '=', 'pending')
            .where('release_at', '<=', time)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) !== 1) return false;
          const fresh = await transaction
            .selectFrom('referral_rebates')
            .select(['amount_micros', 'clawed_micros'])
            .where('id', '=', rebate.id)
            .executeTakeFirstOrThrow();
          const amount = Number(fresh.amount_micros) - Number(fresh.clawed_micros);
          const ledger = paymentLedger(transaction, time, generateId);
          await ledger.addUserBalance(rebate.inviter_id, amount);
          await ledger.note(rebate.inviter_id, amount, `referral rebate for order ${rebate.order_id} credited after its holding period`);
          return true;
        });
        if (won) credited.push(rebate.inviter_id);
      }
      return credited;
    },
  };
}

function toRebate(row: Selectable<ReferralRebatesTable>): ReferralRebate {
  return {
    id: row.id,
    orderId: row.order_id,
    inviterId: row.inviter_id,
    inviteeId: row.invitee_id,
    amountMicros: Number(row.amount_micros),
    clawedMicros: Number(row.clawed_micros),
    status: row.status as RebateStatus,
    releaseAt: Number(row.release_at),
    creditedAt: row.credited_at === null ? null : Number(row.credited_at),
    createdAt: Number(row.created_at),
  };
}
