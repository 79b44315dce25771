import type { EmbeddingRequest } from '../../core/embedding.ts';
import type { EmbeddingUpstreamWire } from './embedding-wire.ts';
import { asRecord, invalidEmbeddingReply, readCount, readVector } from './read-vector.ts';

/** Cohere Embed on Bedrock takes up to 96 texts a call. */
const COHERE_MAX_TEXTS = 96;

/** Whether a Bedrock model id (or inference profile) is one of Cohere's embedding models. */
export function isBedrockCohereEmbedModel(modelId: string): boolean {
  return /cohere\.embed/i.test(modelId);
}

/**
 * Amazon Titan Text Embeddings through InvokeModel: one `inputText` per call (the gateway
 * fans a batch out), `dimensions` on v2 (256, 512, 1024); the reply counts its tokens.
 */
export const bedrockTitanEmbeddingsWire: EmbeddingUpstreamWire = {
  id: 'bedrock-titan',
  errorProtocol: 'bedrock-converse',
  maxInputsPerCall: () => 1,
  encodeRequest(request) {
    return JSON.stringify({ inputText: request.inputs[0] ?? '', ...(request.dimensions === undefined ? {} : { dimensions: request.dimensions }) });
  },
  decodeResponse(body, inputCount, headerTokens) {
    if (inputCount !== 1) throw invalidEmbeddingReply('Titan embeds one text per call');
    const record = asRecord(body);
    return { vectors: [readVector(record?.embedding, 'embedding')], inputTokens: readCount(record?.inputTextTokenCount) ?? headerTokens };
  },
};

/**
 * Cohere Embed through InvokeModel: `texts[]` and the required `input_type`, mapped from the
 * Gemini-style task type (documents unless the client said it embeds queries, or classifies or
 * clusters). Cohere's body has no token count; Bedrock's `x-amzn-bedrock-input-token-count` does.
 */
export const bedrockCohereEmbeddingsWire: EmbeddingUpstreamWire = {
  id: 'bedrock-cohere',
  errorProtocol: 'bedrock-converse',
  maxInputsPerCall: () => COHERE_MAX_TEXTS,
  encodeRequest(request) {
    return JSON.stringify({ texts: request.inputs, input_type: cohereInputType(request) });
  },
  decodeResponse(body, inputCount, headerTokens) {
    const embeddings = asRecord(body)?.embeddings;
    // `embeddings_floats` is an array of vectors; `embeddings_by_type` keys them by type.
    const floats = Array.isArray(embeddings) ? embeddings : asRecord(embeddings)?.float;
    if (!Array.isArray(floats) || floats.length !== inputCount) throw invalidEmbeddingReply(`expected ${inputCount} vectors in "embeddings"`);
    return { vectors: floats.map((vector, index) => readVector(vector, `embeddings[${index}]`)), inputTokens: headerTokens };
  },
};

function cohereInputType(request: EmbeddingRequest): string {
  switch (request.taskType?.toUpperCase()) {
    case 'RETRIEVAL_QUERY':
    case 'QUESTION_ANSWERING':
    case 'FACT_VERIFICATION':
    case 'CODE_RETRIEVAL_QUERY':
      return 'search_query';
    case 'CLASSIFICATION':
      return 'classification';
    case 'CLUSTERING':
      return 'clustering';
    default:
      return 'search_document';
  }
}
