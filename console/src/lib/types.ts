/**
 * Shapes the admin API answers with, all from the gateway's own `src/server/admin/admin-api-types.ts`:
 * the routes build their answers as those types (`satisfies`), so the console cannot drift from
 * them. Times are ISO strings; money is USD, except log rows, which keep micro-USD.
 */
export type {
  AdminApiKeyListing as ApiKeyRecord,
  AdminChannel as Channel,
  AdminChannelHealth as ChannelHealth,
  AdminGroup as Group,
  AdminKeyLimits as KeyLimits,
  AdminPrice as Price,
  AdminLogEntry as LogEntry,
  AdminAuditEntry as AuditEntry,
  AdminUsageSummary as UsageSummary,
  AdminUsageTotals as UsageTotals,
} from '../../../src/server/admin/admin-api-types.ts';

export type ListAnswer<T> = { data: T[] };

/** A list the gateway pages: `next` is the cursor of the following (older) page, null on the last. */
export type PagedAnswer<T> = { data: T[]; next?: string | null };
