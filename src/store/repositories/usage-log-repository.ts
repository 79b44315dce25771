import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { UsageLogsTable } from '../database-schema.ts';
import type { PaidBy, UsageAttempt, UsageLogEntry, UsageTransport } from '../../domain/usage-log-entry.ts';
import type { UsageLogRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';
import { aggregateUsage } from './aggregate-usage.ts';
import { createSqliteLedgerInsert, insertLedgerRows } from './ledger-rows.ts';
import { summarizeUsage } from './summarize-usage.ts';
import { createSqliteRollupUpsert, ROLLUPS, rebuildUsageRollup, upsertRollupPostgres } from './usage-rollup.ts';
import { channelWindow, spendWindow, statusFigures } from './usage-windows.ts';

/** 30 columns × 200 rows stays well inside SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_STATEMENT = 200;
export const DEFAULT_USAGE_QUERY_LIMIT = 100;
/** Rows one pruning statement deletes: ~10-30 ms on SQLite, so a usage batch waits at most that. */
const PRUNE_BATCH_ROWS = 2_000;

/**
 * `request_id` is the primary key and inserts ignore duplicates, so the usage writer can retry a
 * batch that may already have landed without logging a request twice.
 */
export function createUsageLogRepository({ db, sqlite }: StoreContext): UsageLogRepository {
  const insertSqlite = sqlite ? createSqliteUsageInsert(sqlite) : undefined;
  return {
    async insertMany(entries) {
      if (entries.length === 0) return;
      if (insertSqlite) return insertSqlite(entries);
      const rows = entries.map(toRow);
      await db.transaction().execute(async (transaction) => {
        const inserted = new Set<string>();
        for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
          const written = await transaction
            .insertInto('usage_logs')
            .values(rows.slice(start, start + ROWS_PER_STATEMENT))
            .onConflict((conflict) => conflict.column('request_id').doNothing())
            .returning('request_id')
            .execute();
          for (const row of written) inserted.add(row.request_id);
        }
        // The requests' ledger rows in the same transaction: no write of their own (issue 27).
        const ledgers = entries.flatMap((entry) => (entry.ledger === undefined ? [] : [entry.ledger]));
        if (ledgers.length > 0)
          await insertLedgerRows(
            transaction,
            ledgers.flatMap((ledger) => ledger.attempts),
            ledgers.flatMap((ledger) => ledger.charges),
          );
        // Only the rows this transaction inserted: a retried slice already rolled up adds nothing.
        await upsertRollupPostgres(
          transaction,
          entries.filter((entry) => inserted.has(entry.requestId)),
        );
      });
    },

    /** Newest first (ties broken by request id, descending), at most `limit` (default 100). */
    async query(query) {
      const limit = query.limit ?? DEFAULT_USAGE_QUERY_LIMIT;
      if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
      let select = db.selectFrom('usage_logs').selectAll();
      if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
      if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
      if (query.group !== undefined) select = select.where('group_name', '=', query.group);
      if (query.model !== undefined) select = select.where('model', '=', query.model);
      if (query.channelId !== undefined) select = select.where('channel_id', '=', query.channelId);
      if (query.status !== undefined) select = select.where('status', '=', query.status);
      if (query.from !== undefined) select = select.where('time', '>=', query.from);
      if (query.to !== undefined) select = select.where('time', '<', query.to);
      if (query.before !== undefined) {
        const before = query.before;
        const beforeId = query.beforeRequestId;
        // With the request id the cursor is exact: rows in the same millisecond are neither skipped nor repeated.
        // A row-value comparison, not `time < t or (time = t and id < i)`: both databases seek
        // the (…, time, request_id) index to it, where the OR made SQLite scan from the newest
        // row (386 ms for a page 45 days deep in 1M rows, and a month's export page by page).
        select = beforeId === undefined ? select.where('time', '<', before) : select.where(sql<boolean>`(time, request_id) < (${before}, ${beforeId})`);
      }
      const rows = await select.orderBy('time', 'desc').orderBy('request_id', 'desc').limit(limit).execute();
      return rows.map(toEntry);
    },

    summarize: (query) => summarizeUsage(db, query),

    /**
     * In batches of PRUNE_BATCH_ROWS, the event loop free between them: one DELETE of a month of
     * rows would hold SQLite's write lock (and the event loop: better-sqlite3 is synchronous)
     * or PostgreSQL's row locks for seconds, and the usage writer's batches would wait behind it.
     */
    async pruneBefore(time) {
      let deleted = 0;
      for (;;) {
        const oldest = db.selectFrom('usage_logs').select('request_id').where('time', '<', time).limit(PRUNE_BATCH_ROWS);
        const result = await db.deleteFrom('usage_logs').where('request_id', 'in', oldest).executeTakeFirst();
        const batch = Number(result.numDeletedRows);
        deleted += batch;
        if (batch < PRUNE_BATCH_ROWS) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      // The rollups go with the rows: whole periods dropped, the period cut in two summed again
      // from the rows it keeps (rows that old are no longer written, so nothing races it).
      for (const rollup of ROLLUPS) {
        const start = Math.floor(time / rollup.periodMs) * rollup.periodMs;
        await db.deleteFrom(rollup.table).where('period_start', '<', start).execute();
        if (start < time) await rebuildUsageRollup(db, rollup, start, start + rollup.periodMs);
      }
      return deleted;
    },

    aggregate: (query) => aggregateUsage(db, query),
    statusFigures: (now) => statusFigures(db, now),
    channelWindow: (from, to) => channelWindow(db, from, to),
    spendWindow: (from, to) => spendWindow(db, from, to),
  };
}

/**
 * SQLite writes run on the event loop, so the usage batch must be cheap: one prepared
 * single-row statement reused inside one transaction (a few µs a row) instead of building and
 * preparing a fresh multi-row statement for every batch (tens of µs a row), with each row's
 * values bound by position straight from the entry (no row object or value array per row).
 */
function createSqliteUsageInsert(sqlite: BetterSqlite3.Database): (entries: UsageLogEntry[]) => void {
  let statement: BetterSqlite3.Statement | undefined;
  const upsertRollup = createSqliteRollupUpsert(sqlite);
  const inserted: UsageLogEntry[] = [];
  const insertLedger = createSqliteLedgerInsert(sqlite);
  return sqlite.transaction((entries: UsageLogEntry[]) => {
    inserted.length = 0;
    // Prepared on first use: the repository is built before the migrations have run.
    if (!statement) {
      const columns = Object.keys(toRow(SAMPLE_ENTRY));
      statement = sqlite.prepare(
        `INSERT INTO usage_logs (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT (request_id) DO NOTHING`,
      );
    }
    for (const entry of entries) {
      // The same order as toRow's keys (checked by the usage conformance tests through both paths).
      const { changes } = statement.run(
        entry.requestId,
        entry.time,
        entry.keyId,
        entry.keyName,
        entry.group,
        entry.model,
        entry.upstreamModel,
        entry.channelId,
        entry.channelName,
        entry.clientProtocol,
        entry.upstreamProtocol,
        entry.surface,
        entry.status,
        entry.errorCode,
        entry.errorMessage,
        entry.inputTokens,
        entry.outputTokens,
        entry.cacheReadTokens,
        entry.cacheWriteTokens,
        entry.reasoningTokens,
        entry.costMicros,
        entry.latencyMs,
        entry.ttftMs,
        entry.stream ? 1 : 0,
        entry.warnings.length === 0 ? '[]' : JSON.stringify(entry.warnings),
        JSON.stringify(entry.attempts),
        entry.clientIp,
        entry.userId ?? null,
        entry.paidBy ?? null,
        entry.subscriptionId ?? null,
        entry.transport ?? 'http',
      );
      if (changes === 1) inserted.push(entry);
      if (entry.ledger !== undefined) insertLedger(entry.ledger.attempts, entry.ledger.charges);
    }
    // In the insert's transaction, and only for rows it inserted: a retried slice adds nothing twice.
    upsertRollup(inserted);
    inserted.length = 0;
  });
}

/** Any entry: only its keys' order matters (the column list of the prepared statement). */
const SAMPLE_ENTRY: UsageLogEntry = {
  requestId: '',
  time: 0,
  keyId: null,
  keyName: null,
  group: null,
  model: null,
  upstreamModel: null,
  channelId: null,
  channelName: null,
  clientProtocol: null,
  upstreamProtocol: null,
  surface: null,
  status: 0,
  errorCode: null,
  errorMessage: null,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  costMicros: 0,
  latencyMs: 0,
  ttftMs: null,
  stream: false,
  warnings: [],
  attempts: [],
  clientIp: null,
};

function toRow(entry: UsageLogEntry): Insertable<UsageLogsTable> {
  return {
    request_id: entry.requestId,
    time: entry.time,
    key_id: entry.keyId,
    key_name: entry.keyName,
    group_name: entry.group,
    model: entry.model,
    upstream_model: entry.upstreamModel,
    channel_id: entry.channelId,
    channel_name: entry.channelName,
    client_protocol: entry.clientProtocol,
    upstream_protocol: entry.upstreamProtocol,
    surface: entry.surface,
    status: entry.status,
    error_code: entry.errorCode,
    error_message: entry.errorMessage,
    input_tokens: entry.inputTokens,
    output_tokens: entry.outputTokens,
    cache_read_tokens: entry.cacheReadTokens,
    cache_write_tokens: entry.cacheWriteTokens,
    reasoning_tokens: entry.reasoningTokens,
    cost_micros: entry.costMicros,
    latency_ms: entry.latencyMs,
    ttft_ms: entry.ttftMs,
    stream: entry.stream ? 1 : 0,
    warnings: JSON.stringify(entry.warnings),
    attempts: JSON.stringify(entry.attempts),
    client_ip: entry.clientIp,
    user_id: entry.userId ?? null,
    paid_by: entry.paidBy ?? null,
    subscription_id: entry.subscriptionId ?? null,
    transport: entry.transport ?? 'http',
  };
}

function toEntry(row: Selectable<UsageLogsTable>): UsageLogEntry {
  return {
    requestId: row.request_id,
    time: Number(row.time),
    keyId: row.key_id,
    keyName: row.key_name,
    group: row.group_name,
    model: row.model,
    upstreamModel: row.upstream_model,
    channelId: row.channel_id,
    channelName: row.channel_name,
    clientProtocol: row.client_protocol,
    upstreamProtocol: row.upstream_protocol,
    surface: row.surface,
    status: Number(row.status),
    errorCode: row.error_code,
    errorMessage: row.error_message,
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    cacheReadTokens: Number(row.cache_read_tokens),
    cacheWriteTokens: Number(row.cache_write_tokens),
    reasoningTokens: Number(row.reasoning_tokens),
    costMicros: Number(row.cost_micros),
    latencyMs: Number(row.latency_ms),
    ttftMs: row.ttft_ms === null ? null : Number(row.ttft_ms),
    stream: Number(row.stream) !== 0,
    warnings: JSON.parse(row.warnings) as string[],
    attempts: JSON.parse(row.attempts) as UsageAttempt[],
    clientIp: row.client_ip,
    // Absent rather than null when unset, as before accounts existed.
    ...(row.user_id === null ? {} : { userId: row.user_id }),
    ...(row.paid_by === null ? {} : { paidBy: row.paid_by as PaidBy }),
    ...(row.subscription_id === null ? {} : { subscriptionId: row.subscription_id }),
    // Absent for HTTP, as before WebSocket turns existed.
    ...(row.transport === 'websocket' ? { transport: row.transport as UsageTransport } : {}),
  };
}
