import type { Kysely, Migration } from 'kysely';

/**
 * Withdrawals of referral rebates (issue 28): each request, and per inviter the amount asked for
 * so far and not rejected (`referral_codes.withdrawn_micros`). A request is one conditional
 * UPDATE of that sum (it may not pass the credited rebates), so concurrent requests cannot
 * withdraw the same rebate twice.
 */
export const referralWithdrawalsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('referral_codes')
      .addColumn('withdrawn_micros', 'bigint', (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('referral_withdrawals')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('amount_micros', 'bigint', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('payout_to', 'text', (column) => column.notNull())
      .addColumn('payout_ref', 'text')
      .addColumn('reason', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('decided_at', 'bigint')
      .addColumn('paid_at', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('referral_withdrawals_user').on('referral_withdrawals').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('referral_withdrawals_status').on('referral_withdrawals').columns(['status', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('referral_withdrawals').execute();
    await db.schema.alterTable('referral_codes').dropColumn('withdrawn_micros').execute();
  },
};
