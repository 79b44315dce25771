/**
 * The canonical embeddings request and result every embeddings wire format converts to and
 * from. Text only: every provider the gateway reaches embeds text, and each has its own shape
 * for anything else (images, token ids).
 */
export interface EmbeddingRequest {
  /** The public model name the client asked for. */
  model: string;
  /** The texts to embed, in order; never empty. */
  inputs: string[];
  /** OpenAI `dimensions`, Gemini/Vertex `outputDimensionality`, Titan `dimensions`. */
  dimensions?: number;
  /**
   * What the vectors are for, in Gemini's vocabulary (`RETRIEVAL_DOCUMENT`, `RETRIEVAL_QUERY`,
   * `SEMANTIC_SIMILARITY`, `CLASSIFICATION`, `CLUSTERING`, …); Cohere's `input_type` maps from it.
   */
  taskType?: string;
  /** A document title (Gemini and Vertex, with `RETRIEVAL_DOCUMENT`). */
  title?: string;
  /** An end-user identifier (OpenAI `user`). */
  user?: string;
}

export interface EmbeddingResult {
  /** One vector per input, in input order. */
  vectors: number[][];
  /** Input tokens as the upstream counted them; undefined when it does not say (Gemini API). */
  inputTokens: number | undefined;
}
