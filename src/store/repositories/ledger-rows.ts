import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { LedgerAttempt, LedgerCharge, LedgerUsage, PayerKind } from '../../domain/ledger-entry.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import type { LedgerAttemptsTable, LedgerChargesTable } from '../ledger-tables.ts';

/** 16 columns × 200 rows stays well inside SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_STATEMENT = 200;

/**
 * Inserts ledger rows inside the caller's transaction (the usage writer's, so a request's ledger
 * rows land with its usage row). Keyed by request and attempt (or payer): a retried batch writes
 * nothing twice.
 */
export async function insertLedgerRows(
  db: Kysely<DatabaseSchema> | Transaction<DatabaseSchema>,
  attempts: LedgerAttempt[],
  charges: LedgerCharge[],
): Promise<void> {
  for (let start = 0; start < attempts.length; start += ROWS_PER_STATEMENT)
    await db
      .insertInto('ledger_attempts')
      .values(attempts.slice(start, start + ROWS_PER_STATEMENT).map(attemptRow))
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  for (let start = 0; start < charges.length; start += ROWS_PER_STATEMENT)
    await db
      .insertInto('ledger_charges')
      .values(charges.slice(start, start + ROWS_PER_STATEMENT).map(chargeRow))
      .onConflict((conflict) => conflict.doNothing())
      .execute();
}

/**
 * The SQLite form, run inside the usage writer's synchronous transaction: one prepared statement
 * per table reused row by row, values bound by position straight from the row (no row object per
 * row: ~40 % less CPU than a multi-row Kysely insert of the same rows, measured per request).
 */
export function createSqliteLedgerInsert(sqlite: BetterSqlite3.Database): (attempts: LedgerAttempt[], charges: LedgerCharge[]) => void {
  let insertAttempt: BetterSqlite3.Statement | undefined;
  let insertCharge: BetterSqlite3.Statement | undefined;
  // Prepared on first use: the repository is built before the migrations have run.
  const prepare = (table: string, columns: readonly string[]) =>
    sqlite.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`);
  return (attempts, charges) => {
    for (const a of attempts) {
      insertAttempt ??= prepare('ledger_attempts', ATTEMPT_COLUMNS);
      // The order of ATTEMPT_COLUMNS (the store conformance reads every field back).
      insertAttempt.run(
        a.requestId,
        a.attemptNo,
        a.time,
        a.model,
        a.group,
        a.accountId,
        a.channelId,
        a.keySlot,
        a.upstreamRequestId,
        a.status,
        a.rawUsage,
        a.rawUsageTruncated ? 1 : 0,
        JSON.stringify(a.usage),
        a.costMicros,
        a.costVersion,
        a.charged ? 1 : 0,
        JSON.stringify(a.warnings),
      );
    }
    for (const c of charges) {
      insertCharge ??= prepare('ledger_charges', CHARGE_COLUMNS);
      insertCharge.run(c.requestId, c.payerKind, c.payerId, c.time, c.keyId, c.accountId, c.group, c.model, c.channelId, c.sellMicros, c.sellVersion);
    }
  };
}

const ATTEMPT_COLUMNS = [
  'request_id',
  'attempt_no',
  'time',
  'model',
  'group_name',
  'account_id',
  'channel_id',
  'key_slot',
  'upstream_request_id',
  'status',
  'raw_usage',
  'raw_usage_truncated',
  'usage',
  'cost_micros',
  'cost_version',
  'charged',
  'warnings',
] as const;
const CHARGE_COLUMNS = [
  'request_id',
  'payer_kind',
  'payer_id',
  'time',
  'key_id',
  'account_id',
  'group_name',
  'model',
  'channel_id',
  'sell_micros',
  'sell_version',
] as const;

export function attemptRow(attempt: LedgerAttempt): Selectable<LedgerAttemptsTable> {
  return {
    request_id: attempt.requestId,
    attempt_no: attempt.attemptNo,
    time: attempt.time,
    model: attempt.model,
    group_name: attempt.group,
    account_id: attempt.accountId,
    channel_id: attempt.channelId,
    key_slot: attempt.keySlot,
    upstream_request_id: attempt.upstreamRequestId,
    status: attempt.status,
    raw_usage: attempt.rawUsage,
    raw_usage_truncated: attempt.rawUsageTruncated ? 1 : 0,
    usage: JSON.stringify(attempt.usage),
    cost_micros: attempt.costMicros,
    cost_version: attempt.costVersion,
    charged: attempt.charged ? 1 : 0,
    warnings: JSON.stringify(attempt.warnings),
  };
}

export function chargeRow(charge: LedgerCharge): Selectable<LedgerChargesTable> {
  return {
    request_id: charge.requestId,
    payer_kind: charge.payerKind,
    payer_id: charge.payerId,
    time: charge.time,
    key_id: charge.keyId,
    account_id: charge.accountId,
    group_name: charge.group,
    model: charge.model,
    channel_id: charge.channelId,
    sell_micros: charge.sellMicros,
    sell_version: charge.sellVersion,
  };
}

export function toAttempt(row: Selectable<LedgerAttemptsTable>): LedgerAttempt {
  return {
    requestId: row.request_id,
    attemptNo: Number(row.attempt_no),
    time: Number(row.time),
    model: row.model,
    group: row.group_name,
    accountId: row.account_id,
    channelId: row.channel_id,
    keySlot: row.key_slot === null ? null : Number(row.key_slot),
    upstreamRequestId: row.upstream_request_id,
    status: row.status === null ? null : Number(row.status),
    rawUsage: row.raw_usage,
    rawUsageTruncated: Number(row.raw_usage_truncated) === 1,
    usage: JSON.parse(row.usage) as LedgerUsage,
    costMicros: Number(row.cost_micros),
    costVersion: row.cost_version,
    charged: Number(row.charged) === 1,
    warnings: JSON.parse(row.warnings) as string[],
  };
}

export function toCharge(row: Selectable<LedgerChargesTable>): LedgerCharge {
  return {
    requestId: row.request_id,
    payerKind: row.payer_kind as PayerKind,
    payerId: row.payer_id,
    time: Number(row.time),
    keyId: row.key_id,
    accountId: row.account_id,
    group: row.group_name,
    model: row.model,
    channelId: row.channel_id,
    sellMicros: Number(row.sell_micros),
    sellVersion: row.sell_version,
  };
}
