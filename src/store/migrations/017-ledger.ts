import type { Kysely, Migration } from 'kysely';

/**
 * The ledger (issue 27), beside the usage row: `ledger_attempts` has one row per upstream attempt
 * (what it consumed as the upstream reported it and normalised, what it cost the operator at which
 * cost-price version, and whether the customer was charged for it); `ledger_charges` one row per
 * payer of a request (the sell amount and its price version). Money is integer micro-USD.
 */
export const ledgerMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('ledger_attempts')
      .addColumn('request_id', 'text', (column) => column.notNull())
      .addColumn('attempt_no', 'integer', (column) => column.notNull())
      .addColumn('time', 'bigint', (column) => column.notNull())
      .addColumn('model', 'text')
      .addColumn('group_name', 'text')
      .addColumn('account_id', 'text')
      .addColumn('channel_id', 'text')
      .addColumn('key_slot', 'integer')
      .addColumn('upstream_request_id', 'text')
      .addColumn('status', 'integer')
      .addColumn('raw_usage', 'text')
      .addColumn('usage', 'text', (column) => column.notNull())
      .addColumn('cost_micros', 'bigint', (column) => column.notNull())
      .addColumn('cost_version', 'text')
      .addColumn('charged', 'integer', (column) => column.notNull())
      .addColumn('warnings', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('ledger_attempts_pk', ['request_id', 'attempt_no'])
      .execute();
    await db.schema.createIndex('ledger_attempts_time').on('ledger_attempts').columns(['time', 'channel_id']).execute();
    await db.schema
      .createTable('ledger_charges')
      .addColumn('request_id', 'text', (column) => column.notNull())
      .addColumn('payer_kind', 'text', (column) => column.notNull())
      .addColumn('payer_id', 'text')
      .addColumn('time', 'bigint', (column) => column.notNull())
      .addColumn('key_id', 'text')
      .addColumn('account_id', 'text')
      .addColumn('group_name', 'text')
      .addColumn('model', 'text')
      .addColumn('channel_id', 'text')
      .addColumn('sell_micros', 'bigint', (column) => column.notNull())
      .addColumn('sell_version', 'text')
      .addPrimaryKeyConstraint('ledger_charges_pk', ['request_id', 'payer_kind'])
      .execute();
    await db.schema.createIndex('ledger_charges_time').on('ledger_charges').column('time').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('ledger_charges').execute();
    await db.schema.dropTable('ledger_attempts').execute();
  },
};
