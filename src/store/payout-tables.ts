/** Kysely shape of the rebate withdrawals (migration 040); conventions as in database-schema.ts. */
export interface ReferralWithdrawalsTable {
  id: string;
  user_id: string;
  amount_micros: number;
  status: string;
  payout_to: string;
  payout_ref: string | null;
  reason: string | null;
  decided_by: string | null;
  decided_at: number | null;
  paid_at: number | null;
  created_at: number;
}
