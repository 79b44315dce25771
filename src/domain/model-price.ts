/** List price of one public model name. */
export interface ModelPrice {
  model: string;
  /** micro-USD per million tokens. */
  inputPerMillion: number;
  outputPerMillion: number;
  cacheReadPerMillion: number | null;
  cacheWritePerMillion: number | null;
  updatedAt: number;
}

export type NewModelPrice = Omit<ModelPrice, 'updatedAt'>;
