/**
 * One turn of a stateful Responses conversation (`store: true`, `previous_response_id`), kept
 * for the API key that made it.
 *
 * - `gateway`: the gateway holds the turn (its input items and the response object the client
 *   received) and replays the chain to whatever upstream serves the next turn.
 * - `upstream`: an OpenAI Responses upstream created and keeps the response; the gateway only
 *   remembers where (channel and which of its keys), so the chain stays on that account.
 */
export type StoredResponseHolder = 'gateway' | 'upstream';

export interface StoredResponse {
  /** The response id the client saw (`resp_…`). */
  id: string;
  /** The API key that created it; no other key can read, continue or delete it. */
  keyId: string;
  previousResponseId: string | null;
  holder: StoredResponseHolder;
  /** `upstream`: the channel that holds it. */
  channelId: string | null;
  /** `upstream`: SHA-256 (hex) of the upstream key that created it; the key itself is never stored here. */
  upstreamKeyHash: string | null;
  /** The public model name the client asked for. */
  model: string;
  /** `gateway`: this turn's input, as Responses input items. */
  input: unknown[] | null;
  /** `gateway`: the response object as the client received it. */
  response: Record<string, unknown> | null;
  /** UTF-8 bytes of `input` and `response` as stored. */
  sizeBytes: number;
  /**
   * `upstream`: the tokens this turn leaves in the chain's context, as the upstream reported
   * them (input, which includes the context before it, plus output): what a continuation
   * reserves for the context the upstream bills again. Null when unknown (kept before it was).
   */
  contextTokens?: number | null;
  createdAt: number;
  expiresAt: number;
}
