/** Embeddings wire formats: the client surfaces' decoders and encoders, and the upstream wires. */
export type { EmbeddingUpstreamWire, EmbeddingWireId } from './embedding-wire.ts';
export { decodeOpenAiEmbeddingRequest, encodeOpenAiEmbeddingResponse, openaiEmbeddingsWire, type OpenAiEncodingFormat } from './openai-embeddings.ts';
export {
  decodeGeminiBatchEmbedContentsRequest,
  decodeGeminiEmbedContentRequest,
  encodeGeminiBatchEmbedContentsResponse,
  encodeGeminiEmbedContentResponse,
  geminiEmbeddingsWire,
} from './gemini-embeddings.ts';
export { vertexEmbeddingsWire } from './vertex-embeddings.ts';
export { bedrockCohereEmbeddingsWire, bedrockTitanEmbeddingsWire, isBedrockCohereEmbedModel } from './bedrock-embeddings.ts';
export { decodeFloat32Base64, encodeFloat32Base64 } from './float32-base64.ts';
