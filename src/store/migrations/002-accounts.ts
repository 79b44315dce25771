import type { Kysely, Migration } from 'kysely';

/**
 * Accounts (issue 15): users with wallets, plans, subscriptions and their per-window usage,
 * redemption codes; keys gain a user, groups a billing mode, usage rows what paid.
 * Written against `Kysely<any>` like the first migration, with types both dialects accept.
 */
export const accountsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('email', 'text')
      .addColumn('password_hash', 'text')
      .addColumn('balance_micros', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('spent_micros', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('users_name_unique', ['name'])
      .addUniqueConstraint('users_email_unique', ['email'])
      .execute();

    await db.schema
      .createTable('plans')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('group_name', 'text', (column) => column.notNull().references('groups.name').onDelete('restrict'))
      .addColumn('duration_days', 'integer', (column) => column.notNull())
      .addColumn('quota_daily_micros', 'bigint')
      .addColumn('quota_weekly_micros', 'bigint')
      .addColumn('quota_monthly_micros', 'bigint')
      .addColumn('quota_total_micros', 'bigint')
      .addColumn('price_micros', 'bigint')
      .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('plans_name_unique', ['name'])
      .execute();

    await db.schema
      .createTable('subscriptions')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('plan_id', 'text', (column) => column.notNull().references('plans.id').onDelete('restrict'))
      .addColumn('starts_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .addColumn('suspended', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('subscriptions_user_id').on('subscriptions').column('user_id').execute();
    await db.schema.createIndex('subscriptions_plan_id').on('subscriptions').column('plan_id').execute();

    await db.schema
      .createTable('subscription_usage')
      .addColumn('subscription_id', 'text', (column) => column.notNull().references('subscriptions.id').onDelete('cascade'))
      .addColumn('window_id', 'text', (column) => column.notNull())
      .addColumn('used_micros', 'bigint', (column) => column.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('subscription_usage_pk', ['subscription_id', 'window_id'])
      .execute();

    await db.schema
      .createTable('redemption_codes')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('code_hash', 'text', (column) => column.notNull())
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('amount_micros', 'bigint')
      .addColumn('plan_id', 'text', (column) => column.references('plans.id').onDelete('cascade'))
      .addColumn('expires_at', 'bigint')
      .addColumn('used_at', 'bigint')
      .addColumn('used_by_user_id', 'text')
      .addColumn('used_by_key_id', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('redemption_codes_code_hash_unique', ['code_hash'])
      .execute();

    // SQLite accepts a REFERENCES clause on ADD COLUMN when the default is NULL.
    await db.schema
      .alterTable('api_keys')
      .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('restrict'))
      .execute();
    await db.schema.createIndex('api_keys_user_id').on('api_keys').column('user_id').execute();
    await db.schema
      .alterTable('groups')
      .addColumn('billing', 'text', (column) => column.notNull().defaultTo('balance'))
      .execute();
    await db.schema.alterTable('usage_logs').addColumn('user_id', 'text').execute();
    await db.schema.alterTable('usage_logs').addColumn('paid_by', 'text').execute();
    await db.schema.alterTable('usage_logs').addColumn('subscription_id', 'text').execute();
  },
  async down(db: Kysely<any>) {
    for (const column of ['subscription_id', 'paid_by', 'user_id']) await db.schema.alterTable('usage_logs').dropColumn(column).execute();
    await db.schema.alterTable('groups').dropColumn('billing').execute();
    await db.schema.dropIndex('api_keys_user_id').execute();
    await db.schema.alterTable('api_keys').dropColumn('user_id').execute();
    for (const table of ['redemption_codes', 'subscription_usage', 'subscriptions', 'plans', 'users']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
