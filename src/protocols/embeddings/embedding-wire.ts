import type { EmbeddingRequest, EmbeddingResult } from '../../core/embedding.ts';
import type { UpstreamProtocolId } from '../protocol-codec.ts';

/** The embeddings wire formats the gateway sends upstream. */
export type EmbeddingWireId = 'openai-embeddings' | 'gemini-batch-embed' | 'vertex-predict' | 'bedrock-titan' | 'bedrock-cohere';

/**
 * One upstream embeddings wire format: how many texts one call may carry (the gateway splits
 * larger requests), the body for a batch, and the result read back. Pure, like every codec.
 */
export interface EmbeddingUpstreamWire {
  readonly id: EmbeddingWireId;
  /** Whose error shape this upstream answers in (read by that codec's `decodeError`). */
  readonly errorProtocol: UpstreamProtocolId;
  maxInputsPerCall(upstreamModel: string): number;
  /** The JSON body for one call carrying `request.inputs` (already cut to the limit). */
  encodeRequest(request: EmbeddingRequest, upstreamModel: string): string;
  /**
   * The upstream's reply for that call. `headerTokens` is Bedrock's
   * `x-amzn-bedrock-input-token-count`, the only count Cohere on Bedrock gives.
   * Throws `upstream_invalid_response` for a reply that does not fit.
   */
  decodeResponse(body: unknown, inputCount: number, headerTokens: number | undefined): EmbeddingResult;
}
