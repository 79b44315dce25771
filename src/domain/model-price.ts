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
  updatedAt: number;
}

export type NewModelPrice = Omit<ModelPrice, 'updatedAt'>;
