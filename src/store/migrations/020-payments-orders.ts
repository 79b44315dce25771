import type { Kysely, Migration } from 'kysely';

/**
 * Money in (issue 28): payment orders, the providers' settings (secrets sealed with the gateway
 * secret, like channel secrets) and each account's debt, the shortfall a refund could not take
 * back from the wallet. Amounts are integer micro-USD; `charge_minor` is what the provider
 * charged, in its currency's minor unit (cents, fen).
 */
export const paymentOrdersMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('payment_orders')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('provider', 'text', (column) => column.notNull())
      .addColumn('plan_id', 'text')
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('amount_micros', 'bigint', (column) => column.notNull())
      .addColumn('credit_micros', 'bigint', (column) => column.notNull())
      .addColumn('bonus_micros', 'bigint', (column) => column.notNull())
      .addColumn('currency', 'text', (column) => column.notNull())
      .addColumn('charge_minor', 'bigint', (column) => column.notNull())
      .addColumn('promotion_code', 'text')
      .addColumn('provider_ref', 'text')
      .addColumn('payment_ref', 'text')
      .addColumn('payer_fingerprint', 'text')
      .addColumn('checkout_url', 'text')
      .addColumn('refunded_micros', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .addColumn('paid_at', 'bigint')
      .addColumn('credited_at', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('payment_orders_user').on('payment_orders').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('payment_orders_status').on('payment_orders').columns(['status', 'expires_at']).execute();

    await db.schema
      .createTable('payment_providers')
      .addColumn('name', 'text', (column) => column.primaryKey())
      .addColumn('enabled', 'integer', (column) => column.notNull())
      .addColumn('settings', 'text', (column) => column.notNull())
      .addColumn('secrets_sealed', 'text')
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('account_debts')
      .addColumn('user_id', 'text', (column) => column.primaryKey())
      .addColumn('debt_micros', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('account_debts').execute();
    await db.schema.dropTable('payment_providers').execute();
    await db.schema.dropTable('payment_orders').execute();
  },
};
