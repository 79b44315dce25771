import type { EmbeddingRequest, EmbeddingResult } from '../../core/embedding.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { EmbeddingUpstreamWire } from './embedding-wire.ts';
import { asRecord, invalidEmbeddingReply, readCount, readVector } from './read-vector.ts';

/** The Gemini API's cap on requests in one `batchEmbedContents`. */
export const GEMINI_MAX_BATCH = 100;

interface GeminiEmbedOptions {
  taskType?: string;
  title?: string;
  outputDimensionality?: number;
}

/** `:embedContent` — one content, one vector. */
export function decodeGeminiEmbedContentRequest(body: unknown, pathModel: string): EmbeddingRequest {
  const record = asRecord(body);
  if (record === undefined) throw invalidRequest('The request body must be a JSON object.');
  const text = readContentText(record.content, 'content');
  const { taskType, title, dimensions } = readOptions(record, '');
  return {
    model: pathModel,
    inputs: [text],
    ...(taskType === undefined ? {} : { taskType }),
    ...(title === undefined ? {} : { title }),
    ...(dimensions === undefined ? {} : { dimensions }),
  };
}

/**
 * `:batchEmbedContents` — `requests[]`, each naming the path's model. Task type, title and
 * dimensionality must agree across the batch: every other provider takes them once per call.
 */
export function decodeGeminiBatchEmbedContentsRequest(body: unknown, pathModel: string): EmbeddingRequest {
  const requests = asRecord(body)?.requests;
  if (!Array.isArray(requests) || requests.length === 0) throw invalidRequest('"requests" must be a non-empty array of embedContent requests.', 'requests');
  if (requests.length > GEMINI_MAX_BATCH)
    throw invalidRequest(`* BatchEmbedContentsRequest.requests: at most ${GEMINI_MAX_BATCH} requests can be in one batch`, 'requests');
  const inputs: string[] = [];
  let shared: GeminiEmbedOptions | undefined;
  requests.forEach((item, index) => {
    const entry = asRecord(item);
    if (entry === undefined) throw invalidRequest(`requests[${index}] must be an object.`, `requests[${index}]`);
    const model = entry.model;
    if (model !== undefined && model !== `models/${pathModel}` && model !== pathModel) {
      throw invalidRequest(
        `requests[${index}].model is "${String(model)}" but the batch is for "models/${pathModel}"; every request in a batch must name the model in the path.`,
        `requests[${index}].model`,
      );
    }
    inputs.push(readContentText(entry.content, `requests[${index}].content`));
    const options = readOptions(entry, `requests[${index}].`);
    if (shared === undefined) shared = options;
    else if (shared.taskType !== options.taskType || shared.title !== options.title || shared.outputDimensionality !== options.outputDimensionality) {
      throw invalidRequest(
        `requests[${index}] sets a different taskType, title or outputDimensionality from requests[0]; this gateway embeds a batch with one setting (send separate batches).`,
        `requests[${index}]`,
      );
    }
  });
  const options = shared ?? {};
  return {
    model: pathModel,
    inputs,
    ...(options.taskType === undefined ? {} : { taskType: options.taskType }),
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.outputDimensionality === undefined ? {} : { dimensions: options.outputDimensionality }),
  };
}

export function encodeGeminiEmbedContentResponse(result: EmbeddingResult): Record<string, unknown> {
  return { embedding: { values: result.vectors[0] ?? [] } };
}

export function encodeGeminiBatchEmbedContentsResponse(result: EmbeddingResult): Record<string, unknown> {
  return { embeddings: result.vectors.map((values) => ({ values })) };
}

/** A content's text parts, joined: Gemini embeds a whole content as one vector. */
function readContentText(content: unknown, where: string): string {
  const parts = asRecord(content)?.parts;
  if (!Array.isArray(parts) || parts.length === 0) throw invalidRequest(`${where}.parts must be a non-empty array of text parts.`, where);
  const texts = parts.map((part, index) => {
    const text = asRecord(part)?.text;
    if (typeof text !== 'string')
      throw invalidRequest(`${where}.parts[${index}] must be a text part; this gateway embeds text only.`, `${where}.parts[${index}]`);
    return text;
  });
  const joined = texts.join('\n');
  if (joined === '') throw invalidRequest(`${where} has no text to embed.`, where);
  return joined;
}

function readOptions(record: Record<string, unknown>, prefix: string): GeminiEmbedOptions & { dimensions?: number } {
  const options: GeminiEmbedOptions & { dimensions?: number } = {};
  const taskType = record.taskType ?? record.task_type;
  if (taskType !== undefined) {
    if (typeof taskType !== 'string') throw invalidRequest(`${prefix}taskType must be a string such as "RETRIEVAL_DOCUMENT".`, `${prefix}taskType`);
    options.taskType = taskType;
  }
  if (typeof record.title === 'string') options.title = record.title;
  const dimensionality = record.outputDimensionality ?? record.output_dimensionality;
  if (dimensionality !== undefined) {
    if (typeof dimensionality !== 'number' || !Number.isInteger(dimensionality) || dimensionality < 1) {
      throw invalidRequest(`${prefix}outputDimensionality must be a positive integer.`, `${prefix}outputDimensionality`);
    }
    options.outputDimensionality = dimensionality;
    if (prefix === '') options.dimensions = dimensionality;
  }
  return options;
}

/** The Gemini API (AI Studio keys): every call is a `batchEmbedContents`, as @google/genai makes it. */
export const geminiEmbeddingsWire: EmbeddingUpstreamWire = {
  id: 'gemini-batch-embed',
  errorProtocol: 'gemini-generate-content',
  maxInputsPerCall: () => GEMINI_MAX_BATCH,
  encodeRequest(request, upstreamModel) {
    const model = `models/${upstreamModel}`;
    return JSON.stringify({
      requests: request.inputs.map((text) => ({
        model,
        content: { parts: [{ text }] },
        ...(request.taskType === undefined ? {} : { taskType: request.taskType }),
        ...(request.title === undefined ? {} : { title: request.title }),
        ...(request.dimensions === undefined ? {} : { outputDimensionality: request.dimensions }),
      })),
    });
  },
  decodeResponse(body, inputCount) {
    const embeddings = asRecord(body)?.embeddings;
    if (!Array.isArray(embeddings) || embeddings.length !== inputCount) throw invalidEmbeddingReply(`expected ${inputCount} entries in "embeddings"`);
    const vectors = embeddings.map((entry, index) => readVector(asRecord(entry)?.values, `embeddings[${index}].values`));
    // The Developer API reports no token count for embeddings (newer versions may add usageMetadata).
    return { vectors, inputTokens: readCount(asRecord(asRecord(body)?.usageMetadata)?.promptTokenCount) };
  },
};
