/** Kysely's view of `applied_batches` (migration 009-billing-applied-batches). */
export interface AppliedBatchesTable {
  /** The writer's id for one charge batch (or one row of it written alone). */
  id: string;
  applied_at: number;
}
