import type { Kysely, Migration } from 'kysely';

/**
 * Referral and promotions (issue 28): each account's invite code (with the operator's optional
 * per-inviter rate), who invited whom, the rebates an invitee's paid orders earn (held until
 * `release_at`, clawed back on refund; `order_id` is unique so an order earns one rebate), and
 * promotion codes with their one use per account (the primary key decides it).
 */
export const referralsPromotionsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('referral_codes')
      .addColumn('user_id', 'text', (column) => column.primaryKey())
      .addColumn('code', 'text', (column) => column.notNull().unique())
      .addColumn('rate_percent', 'real')
      // The inviter's device cookie, last seen: an invitee signing up from it is the inviter.
      .addColumn('device_fingerprint', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('referrals')
      .addColumn('invitee_id', 'text', (column) => column.primaryKey())
      .addColumn('inviter_id', 'text', (column) => column.notNull())
      .addColumn('fingerprint', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('referrals_inviter').on('referrals').column('inviter_id').execute();
    await db.schema
      .createTable('referral_rebates')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('order_id', 'text', (column) => column.notNull().unique())
      .addColumn('inviter_id', 'text', (column) => column.notNull())
      .addColumn('invitee_id', 'text', (column) => column.notNull())
      .addColumn('amount_micros', 'bigint', (column) => column.notNull())
      .addColumn('clawed_micros', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('release_at', 'bigint', (column) => column.notNull())
      .addColumn('credited_at', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('referral_rebates_inviter').on('referral_rebates').columns(['inviter_id', 'status']).execute();
    await db.schema.createIndex('referral_rebates_due').on('referral_rebates').columns(['status', 'release_at']).execute();

    await db.schema
      .createTable('promotion_codes')
      .addColumn('code', 'text', (column) => column.primaryKey())
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('value', 'real', (column) => column.notNull())
      .addColumn('usage_limit', 'integer')
      .addColumn('used_count', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('expires_at', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('promotion_uses')
      .addColumn('code', 'text', (column) => column.notNull())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('order_id', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('promotion_uses_pk', ['code', 'user_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['promotion_uses', 'promotion_codes', 'referral_rebates', 'referrals', 'referral_codes']) await db.schema.dropTable(table).execute();
  },
};
