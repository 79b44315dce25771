/**
 * Token usage in one convention: `inputTokens` counts the whole prompt including cache reads
 * and writes (OpenAI's `prompt_tokens`), `outputTokens` counts everything generated including
 * reasoning (OpenAI's `completion_tokens`). Optional fields are absent when the upstream did
 * not report them, which is different from reporting zero.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** The part of `cacheWriteTokens` written for one hour (Anthropic `cache_creation.ephemeral_1h_input_tokens`); the rest are 5-minute writes. */
  cacheWrite1hTokens?: number;
  reasoningTokens?: number;
  /**
   * Web searches a provider's server tool ran for the reply (Anthropic
   * `server_tool_use.web_search_requests`, Responses `web_search_call` output items), billed per
   * search at the model's `webSearchPerThousand` when the group may use server tools.
   */
  webSearchRequests?: number;
  /** Images an image endpoint returned, billed by the model's image price (not as text output). */
  images?: ImageUsage;
  /** Audio seconds, speech characters, audio tokens and rerank search units, billed by the model's media price. */
  media?: MediaUsage;
  /**
   * The upstream's own usage object this was decoded from (the parsed wire object itself, not a
   * copy), for the ledger's per-attempt row. Non-enumerable, set only by `keepUpstreamUsage` (protocols/shared/canonical-usage.ts):
   * spreads, JSON and deep equality never see it, so no client reply or stored turn carries it.
   */
  readonly upstream?: unknown;
}

/** What an audio or rerank reply is billed by (each only when the endpoint counts it). */
export interface MediaUsage {
  /** Seconds of audio transcribed or translated (billed whole seconds, rounded up). */
  seconds?: number;
  /** Characters of text spoken (text-to-speech input). */
  characters?: number;
  audioInputTokens?: number;
  audioOutputTokens?: number;
  /** Rerank search units (Cohere: one query over up to 100 documents). */
  searchUnits?: number;
}

/**
 * The images of one reply: how many, at which size × quality (as the upstream reported them, or
 * as asked), and the image tokens where the upstream counts them (gpt-image models do).
 */
export interface ImageUsage {
  count: number;
  size: string;
  quality: string;
  inputTokens?: number;
  outputTokens?: number;
}
