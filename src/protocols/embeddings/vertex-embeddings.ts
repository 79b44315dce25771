import type { EmbeddingUpstreamWire } from './embedding-wire.ts';
import { asRecord, invalidEmbeddingReply, readCount, readVector } from './read-vector.ts';

/** Vertex's text-embedding models take up to 250 instances a call; Gemini embedding models one. */
const VERTEX_MAX_INSTANCES = 250;

/**
 * Vertex AI's `:predict` for Google's embedding models: `instances[]` of `{content, task_type,
 * title}` and `parameters.outputDimensionality`; each prediction carries its vector and its
 * token count (`embeddings.statistics.token_count`).
 */
export const vertexEmbeddingsWire: EmbeddingUpstreamWire = {
  id: 'vertex-predict',
  errorProtocol: 'gemini-generate-content',
  maxInputsPerCall: (upstreamModel) => (/gemini-embedding/i.test(upstreamModel) ? 1 : VERTEX_MAX_INSTANCES),
  encodeRequest(request) {
    return JSON.stringify({
      instances: request.inputs.map((content) => ({
        content,
        ...(request.taskType === undefined ? {} : { task_type: request.taskType }),
        ...(request.title === undefined ? {} : { title: request.title }),
      })),
      ...(request.dimensions === undefined ? {} : { parameters: { outputDimensionality: request.dimensions } }),
    });
  },
  decodeResponse(body, inputCount) {
    const predictions = asRecord(body)?.predictions;
    if (!Array.isArray(predictions) || predictions.length !== inputCount) throw invalidEmbeddingReply(`expected ${inputCount} entries in "predictions"`);
    let tokens: number | undefined = 0;
    const vectors = predictions.map((prediction, index) => {
      const embeddings = asRecord(asRecord(prediction)?.embeddings);
      const count = readCount(asRecord(embeddings?.statistics)?.token_count);
      tokens = count === undefined || tokens === undefined ? undefined : tokens + count;
      return readVector(embeddings?.values, `predictions[${index}].embeddings.values`);
    });
    return { vectors, inputTokens: tokens };
  },
};
