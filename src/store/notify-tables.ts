/** Kysely shapes of issue 30's tables (migrations 028–030); conventions as in database-schema.ts. */
export interface NotificationChannelsTable {
  id: string;
  owner_user_id: string | null;
  type: string;
  name: string;
  /** SecretBox-sealed (the address of most chat webhooks is their credential). */
  url: string | null;
  /** SecretBox-sealed signing secret or bot token. */
  secret_sealed: string | null;
  to_address: string | null;
  /** E-mail channels: admin roles, comma-separated, whose holders receive it (resolved at send time). */
  to_roles: string | null;
  created_at: number;
}

export interface NotificationRulesTable {
  id: string;
  owner_user_id: string | null;
  event: string;
  threshold: number | null;
  window_seconds: number | null;
  /** JSON array of channel ids. */
  channels: string;
  audience: string;
  enabled: number;
  created_at: number;
}

export interface NotificationClaimsTable {
  rule_id: string;
  claim_key: string;
  count: number;
  until_at: number;
}

export interface NotificationOutboxTable {
  id: string;
  rule_id: string | null;
  channel_id: string;
  event: string;
  payload: string;
  recipient: string | null;
  status: string;
  attempts: number;
  next_attempt_at: number;
  claimed_until: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

export interface AnnouncementsTable {
  id: string;
  title: string;
  body: string;
  audience: string;
  ends_at: number | null;
  created_at: number;
}

export interface CircuitHistoryTable {
  id: string;
  channel_id: string;
  model: string | null;
  state: string;
  reason: string | null;
  at: number;
}
