/** Table shapes of operator accounts (migration 015-admin-accounts), as Kysely sees them. */
export interface AdminsTable {
  id: string;
  name: string;
  email: string;
  role: string;
  password_hash: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export interface AdminSessionsTable {
  token_hash: string;
  admin_id: string;
  csrf_token: string;
  client_ip: string | null;
  created_at: number;
  expires_at: number;
  /** Migration 025: the User-Agent it signed in from, and when it was last used. */
  user_agent?: string | null;
  last_seen_at?: number | null;
  /** Migration 026: `passkey` when the session opened with a passkey (two factors on its own). */
  sign_in_method?: string | null;
}

export interface AdminTokensTable {
  id: string;
  name: string;
  role: string;
  token_hash: string;
  created_by: string | null;
  created_at: number;
  expires_at: number;
}
