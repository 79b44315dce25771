import type { AppliedBatchRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';

export function createAppliedBatchRepository({ db }: StoreContext): AppliedBatchRepository {
  return {
    async pruneBefore(time) {
      const result = await db.deleteFrom('applied_batches').where('applied_at', '<', time).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
