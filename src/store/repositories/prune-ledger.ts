import { type RawBuilder, sql } from 'kysely';
import type { StoreContext } from '../store-context.ts';

const DAY_MS = 86_400_000;
/** Rows one pruning statement deletes (as the usage pruner): a ledger write waits at most one of them. */
const PRUNE_BATCH_ROWS = 2_000;
const TABLES = [
  { table: 'ledger_attempts', key: sql`request_id, attempt_no` },
  { table: 'ledger_charges', key: sql`request_id, payer_kind` },
] as const;

/**
 * Deletes ledger rows older than `before`, keeping what reconciliation still needs: a channel's
 * rows of a UTC day for which no upstream bill was imported stay until `unreconciledBefore` (an
 * earlier time), so an operator who imports the month's bill late still finds the gateway's
 * figures. Rows without a channel (a charge for a request no attempt served) have nothing to
 * reconcile. Batched by key, the event loop free between batches, as the usage pruner.
 */
export async function pruneLedger(context: StoreContext, before: number, unreconciledBefore: number): Promise<number> {
  const { db } = context;
  const billed = await db
    .selectFrom('upstream_bills')
    .select(['channel_id', 'day'])
    .distinct()
    .where('day', '>=', dayOf(unreconciledBefore))
    .where('day', '<=', dayOf(before))
    .execute();
  const conditions: RawBuilder<unknown>[] = [sql`time < ${unreconciledBefore}`, sql`channel_id is null and time < ${before}`];
  for (const { channel_id: channel, day } of billed) {
    const start = Date.parse(`${day}T00:00:00Z`);
    if (start >= unreconciledBefore) conditions.push(sql`channel_id = ${channel} and time >= ${start} and time < ${Math.min(start + DAY_MS, before)}`);
  }
  let deleted = 0;
  for (const condition of conditions) for (const { table, key } of TABLES) deleted += await deleteInBatches(context, table, key, condition);
  return deleted;
}

function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

async function deleteInBatches(context: StoreContext, table: string, key: RawBuilder<unknown>, condition: RawBuilder<unknown>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result =
      await sql`delete from ${sql.table(table)} where (${key}) in (select ${key} from ${sql.table(table)} where ${condition} limit ${sql.lit(PRUNE_BATCH_ROWS)})`.execute(
        context.db,
      );
    const batch = Number(result.numAffectedRows ?? 0n);
    deleted += batch;
    if (batch < PRUNE_BATCH_ROWS) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
