/** List price of one public model name. */
export interface ModelPrice {
  model: string;
  /** micro-USD per million tokens. */
  inputPerMillion: number;
  outputPerMillion: number;
  cacheReadPerMillion: number | null;
  /** Cache writes: the 5-minute class (Anthropic's default), and every write when the model has no 1-hour price. */
  cacheWritePerMillion: number | null;
  /** micro-USD per 1,000 web searches a provider's server tool ran; null or absent: not charged. */
  webSearchPerThousand?: number | null;
  /** Image prices (migration 014); absent: the model has none. */
  images?: ImagePrice;
  /** Audio and rerank prices (migration 034); absent: the model has none. */
  media?: MediaPrice;
  /** The classes and tiers of migration 016 (absent on older rows: the classes above price everything). */
  extra?: ExtraRates;
  /** The price version a charge at this price names (`price_versions.id`); absent: a price from before versions. */
  version?: string;
  updatedAt: number;
}

export type NewModelPrice = Omit<ModelPrice, 'updatedAt' | 'version'>;

/**
 * The token classes a flat price does not have, in micro-USD: Anthropic's 1-hour cache writes,
 * reasoning tokens where a provider prices them apart from output, a fee per request, and
 * long-context tiers (a whole request past a threshold of input tokens is billed at the tier's
 * rates, as Claude and Gemini price it).
 */
export interface ExtraRates {
  cacheWrite1hPerMillion?: number;
  reasoningPerMillion?: number;
  perRequest?: number;
  tiers?: PriceTier[];
  /** The operator marked the model free: served at zero, never refused as unpriced. */
  free?: boolean;
}

/** Rates that replace the base ones when a request's input tokens exceed `aboveInputTokens`. */
export interface PriceTier {
  aboveInputTokens: number;
  inputPerMillion: number;
  outputPerMillion: number;
  cacheReadPerMillion?: number;
  cacheWritePerMillion?: number;
  cacheWrite1hPerMillion?: number;
}

/**
 * What an image model costs, in micro-USD: per image — one figure, or one per size × quality as
 * the provider's price list has it — and per million image tokens where the upstream reports them.
 */
export interface ImagePrice {
  perImage?: number | Record<string, Record<string, number>>;
  inputPerMillion?: number;
  outputPerMillion?: number;
}

/**
 * What an audio or rerank model costs, in micro-USD: per second of audio (Whisper), per million
 * characters of speech input (TTS), per million audio tokens read and written (gpt-4o audio
 * models, which report them), per rerank search unit.
 */
export interface MediaPrice {
  perSecond?: number;
  perMillionCharacters?: number;
  audioInputPerMillion?: number;
  audioOutputPerMillion?: number;
  perSearchUnit?: number;
}
