/** Table shapes of the account portal (migration 007-portal-sessions), as Kysely sees them. */
export interface AccountSessionsTable {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  client_ip: string | null;
  created_at: number;
  expires_at: number;
}

export interface WalletAdjustmentsTable {
  id: string;
  user_id: string;
  amount_micros: number;
  note: string;
  balance_after_micros: number | null;
  created_at: number;
}
