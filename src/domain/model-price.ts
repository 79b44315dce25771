/** List price of one public model name. */
export interface ModelPrice {
  model: string;
  /** micro-USD per million tokens. */
  inputPerMillion: number;
  outputPerMillion: number;
  cacheReadPerMillion: number | null;
  cacheWritePerMillion: number | null;
  /** micro-USD per 1,000 web searches a provider's server tool ran; null or absent: not charged. */
  webSearchPerThousand?: number | null;
  /** Image prices (migration 014); absent: the model has none. */
  images?: ImagePrice;
  /** Audio and rerank prices (migration 034); absent: the model has none. */
  media?: MediaPrice;
  updatedAt: number;
}

export type NewModelPrice = Omit<ModelPrice, 'updatedAt'>;

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
