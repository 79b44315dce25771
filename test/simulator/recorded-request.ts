/** The wire format a route speaks; `unknown` for paths no provider serves. */
export type SimulatorProtocol =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'gemini-generate-content'
  /** Bedrock Converse (reached only through the cloud front). */
  | 'bedrock-converse'
  | 'unknown';

/** What the request asked for, independent of dialect. */
/** `stored-response`: GET or DELETE /v1/responses/{id}, GET …/{id}/input_items (OpenAI keeps responses created with `store` on). */
export type SimulatorEndpoint =
  | 'generate'
  | 'count-tokens'
  | 'list-models'
  | 'get-model'
  | 'embed'
  | 'images'
  | 'imagen'
  | 'media'
  | 'compact'
  | 'stored-response'
  | 'unknown';

export interface RecordedRequest {
  method: string;
  /** Path without the query string, exactly as received (not decoded). */
  path: string;
  query: Record<string, string>;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, otherwise the raw text ('' when there was none). */
  body: unknown;
  rawBody: string;
  protocol: SimulatorProtocol;
  endpoint: SimulatorEndpoint;
  model: string | undefined;
  stream: boolean;
  receivedAt: number;
  /** With `promptCache` on: the prompt-cache tokens this Anthropic request read and wrote. */
  promptCache?: { read: number; write: number };
}
