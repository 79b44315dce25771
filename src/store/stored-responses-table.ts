/** Kysely's view of `stored_responses` (migration 008-responses-stored-responses). */
export interface StoredResponsesTable {
  id: string;
  key_id: string;
  previous_response_id: string | null;
  holder: string;
  channel_id: string | null;
  upstream_key_hash: string | null;
  model: string;
  input_json: string | null;
  response_json: string | null;
  size_bytes: number;
  /** Migration 012. */
  context_tokens: number | null;
  created_at: number;
  expires_at: number;
}
