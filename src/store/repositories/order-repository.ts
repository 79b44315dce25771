import type { Selectable } from 'kysely';
import type { Order, OrderStatus, PaymentProviderName } from '../../domain/order.ts';
import type { OrderChanges, OrderRepository } from '../payment-ports.ts';
import type { PaymentOrdersTable } from '../database-schema.ts';
import type { StoreContext } from '../store-context.ts';
import { paymentLedger } from './payment-ledger.ts';

export function createOrderRepository({ db, now, generateId }: StoreContext): OrderRepository {
  return {
    async create(input) {
      const time = now();
      const row: Selectable<PaymentOrdersTable> = {
        id: generateId('ord'),
        user_id: input.userId,
        provider: input.provider,
        plan_id: input.planId,
        status: 'pending',
        amount_micros: input.amountMicros,
        credit_micros: input.creditMicros,
        bonus_micros: input.bonusMicros,
        currency: input.currency,
        charge_minor: input.chargeMinor,
        promotion_code: input.promotionCode,
        provider_ref: null,
        payment_ref: null,
        payer_fingerprint: null,
        checkout_url: null,
        refunded_micros: 0,
        expires_at: input.expiresAt,
        paid_at: null,
        credited_at: null,
        created_at: time,
        updated_at: time,
      };
      await db.insertInto('payment_orders').values(row).execute();
      return toOrder(row);
    },

    async get(id) {
      const row = await db.selectFrom('payment_orders').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toOrder(row);
    },

    async findByProviderRef(provider, providerRef) {
      const row = await db.selectFrom('payment_orders').selectAll().where('provider', '=', provider).where('provider_ref', '=', providerRef).executeTakeFirst();
      return row && toOrder(row);
    },

    async list(query = {}) {
      let select = db.selectFrom('payment_orders').selectAll();
      if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
      if (query.status !== undefined) select = select.where('status', '=', query.status);
      if (query.provider !== undefined) select = select.where('provider', '=', query.provider);
      if (query.from !== undefined) select = select.where('created_at', '>=', query.from);
      if (query.to !== undefined) select = select.where('created_at', '<', query.to);
      const rows = await select
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.limit ?? 500)
        .execute();
      return rows.map(toOrder);
    },

    async listPending(olderThan, limit) {
      const rows = await db
        .selectFrom('payment_orders')
        .selectAll()
        .where('status', '=', 'pending')
        .where('created_at', '<', olderThan)
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map(toOrder);
    },

    async setCheckout(id, providerRef, checkoutUrl) {
      await db.updateTable('payment_orders').set({ provider_ref: providerRef, checkout_url: checkoutUrl, updated_at: now() }).where('id', '=', id).execute();
    },

    async transition(id, expect, to, changes, apply) {
      const time = now();
      return db.transaction().execute(async (transaction) => {
        let update = transaction
          .updateTable('payment_orders')
          .set({ status: to, updated_at: time, ...toColumns(changes) })
          .where('id', '=', id)
          .where('status', 'in', [...expect.from]);
        if (expect.refundedMicros !== undefined) update = update.where('refunded_micros', '=', expect.refundedMicros);
        const result = await update.executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return undefined;
        const order = toOrder(await transaction.selectFrom('payment_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
        await apply?.(order, paymentLedger(transaction, time, generateId));
        return order;
      });
    },

    async debtOf(userId) {
      const row = await db.selectFrom('account_debts').select('debt_micros').where('user_id', '=', userId).executeTakeFirst();
      return Number(row?.debt_micros ?? 0);
    },
  };
}

function toColumns(changes: OrderChanges): Partial<PaymentOrdersTable> {
  const columns: Partial<PaymentOrdersTable> = {};
  if (changes.paymentRef !== undefined) columns.payment_ref = changes.paymentRef;
  if (changes.payerFingerprint !== undefined) columns.payer_fingerprint = changes.payerFingerprint;
  if (changes.paidAt !== undefined) columns.paid_at = changes.paidAt;
  if (changes.creditedAt !== undefined) columns.credited_at = changes.creditedAt;
  if (changes.refundedMicros !== undefined) columns.refunded_micros = changes.refundedMicros;
  return columns;
}

function toOrder(row: Selectable<PaymentOrdersTable>): Order {
  const optionalNumber = (value: number | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    userId: row.user_id,
    provider: row.provider as PaymentProviderName,
    planId: row.plan_id,
    status: row.status as OrderStatus,
    amountMicros: Number(row.amount_micros),
    creditMicros: Number(row.credit_micros),
    bonusMicros: Number(row.bonus_micros),
    currency: row.currency,
    chargeMinor: Number(row.charge_minor),
    promotionCode: row.promotion_code,
    providerRef: row.provider_ref,
    paymentRef: row.payment_ref,
    payerFingerprint: row.payer_fingerprint,
    checkoutUrl: row.checkout_url,
    refundedMicros: Number(row.refunded_micros),
    expiresAt: Number(row.expires_at),
    paidAt: optionalNumber(row.paid_at),
    creditedAt: optionalNumber(row.credited_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
