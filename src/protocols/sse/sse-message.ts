/** One server-sent event as parsed from the wire or about to be written to it. */
export interface SseMessage {
  /** The `event:` field; absent for data-only protocols (OpenAI chat, Gemini). */
  event?: string;
  data: string;
  id?: string;
}
