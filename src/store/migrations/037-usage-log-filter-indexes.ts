import type { Kysely, Migration } from 'kysely';

/**
 * The logs page lists newest first (time, then request id, both descending) narrowed by one
 * filter. Each filter's index now carries the whole sort key, so a page is read straight off the
 * index and stops at the limit, with ties in one millisecond resolved without a sort; status and
 * the account (user_id) had no index at all and scanned the table from the newest row.
 */
const FILTER_COLUMNS = ['key_id', 'model', 'channel_id', 'group_name', 'status', 'user_id'] as const;
const REPLACED = ['key_id', 'model', 'channel_id', 'group_name'] as const;

export const usageLogFilterIndexesMigration: Migration = {
  async up(db: Kysely<any>) {
    for (const column of FILTER_COLUMNS) {
      await db.schema.createIndex(`usage_logs_${column}_page`).on('usage_logs').columns([column, 'time', 'request_id']).execute();
    }
    // The older (column, time) indexes are prefixes of the new ones: dropping them saves a write per row.
    for (const column of REPLACED) await db.schema.dropIndex(`usage_logs_${column}_time`).execute();
  },
  async down(db: Kysely<any>) {
    for (const column of REPLACED) {
      await db.schema.createIndex(`usage_logs_${column}_time`).on('usage_logs').columns([column, 'time']).execute();
    }
    for (const column of FILTER_COLUMNS) await db.schema.dropIndex(`usage_logs_${column}_page`).execute();
  },
};
