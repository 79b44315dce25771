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
