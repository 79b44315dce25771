/** Table shapes of the account portal (migration 007-portal-sessions), as Kysely sees them. */
export interface AccountSessionsTable {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  client_ip: string | null;
  created_at: number;
  expires_at: number;
  /** Migration 025: the User-Agent it signed in from, and when it was last used. */
  user_agent?: string | null;
  last_seen_at?: number | null;
}

export interface WalletAdjustmentsTable {
  id: string;
  user_id: string;
  amount_micros: number;
  note: string;
  balance_after_micros: number | null;
  created_at: number;
}
