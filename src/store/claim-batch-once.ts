import type { Transaction } from 'kysely';
import type { DatabaseSchema } from './database-schema.ts';

/**
 * Records `batchId` as applied inside the caller's transaction and says whether this is its
 * first time. The caller applies the batch only when it is: a retried batch whose first
 * commit did land becomes a no-op, so a lost acknowledgement never charges twice. Without an
 * id (a one-off call, not a retrying writer) every call applies.
 */
export async function claimBatchOnce(transaction: Transaction<DatabaseSchema>, batchId: string | undefined, time: number): Promise<boolean> {
  if (batchId === undefined) return true;
  const result = await transaction
    .insertInto('applied_batches')
    .values({ id: batchId, applied_at: time })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
