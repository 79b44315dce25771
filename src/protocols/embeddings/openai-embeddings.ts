import type { EmbeddingRequest, EmbeddingResult } from '../../core/embedding.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { EmbeddingUpstreamWire } from './embedding-wire.ts';
import { decodeFloat32Base64, encodeFloat32Base64 } from './float32-base64.ts';
import { asRecord, assertComplete, invalidEmbeddingReply, readCount, readVector } from './read-vector.ts';

/** OpenAI's own cap on inputs per request. */
export const OPENAI_MAX_INPUTS = 2048;

export type OpenAiEncodingFormat = 'float' | 'base64';

export interface OpenAiEmbeddingClientRequest {
  request: EmbeddingRequest;
  encodingFormat: OpenAiEncodingFormat;
}

/**
 * `POST /v1/embeddings` as a client sends it: `input` is a string or an array of strings
 * (token-id arrays are refused: only an OpenAI upstream could read them, and the gateway
 * translates to every kind), `encoding_format` float or base64, `dimensions`, `user`.
 */
export function decodeOpenAiEmbeddingRequest(body: unknown): OpenAiEmbeddingClientRequest {
  const record = asRecord(body);
  if (record === undefined) throw invalidRequest('The request body must be a JSON object.');
  const model = record.model;
  if (typeof model !== 'string' || model === '')
    throw invalidRequest('The request body needs a "model" field naming an embeddings model your key can use.', 'model');
  const input = record.input;
  let inputs: string[];
  if (typeof input === 'string') inputs = [input];
  else if (Array.isArray(input) && input.length > 0 && input.every((item) => typeof item === 'string')) inputs = input as string[];
  else if (Array.isArray(input) && input.length > 0 && input.every((item) => typeof item === 'number' || Array.isArray(item))) {
    throw invalidRequest('"input" as token ids is not supported by this gateway; send the text (a string or an array of strings).', 'input');
  } else throw invalidRequest('"input" must be a non-empty string or a non-empty array of strings.', 'input');
  if (inputs.length > OPENAI_MAX_INPUTS) throw invalidRequest(`"input" may hold at most ${OPENAI_MAX_INPUTS} texts; it has ${inputs.length}.`, 'input');
  const empty = inputs.findIndex((text) => text === '');
  if (empty !== -1) throw invalidRequest(`"input${inputs.length > 1 ? `[${empty}]` : ''}" is an empty string; every text to embed must have content.`, 'input');
  const format = record.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') throw invalidRequest('"encoding_format" must be "float" or "base64".', 'encoding_format');
  const request: EmbeddingRequest = { model, inputs };
  if (record.dimensions !== undefined && record.dimensions !== null) {
    if (typeof record.dimensions !== 'number' || !Number.isInteger(record.dimensions) || record.dimensions < 1) {
      throw invalidRequest('"dimensions" must be a positive integer.', 'dimensions');
    }
    request.dimensions = record.dimensions;
  }
  if (typeof record.user === 'string') request.user = record.user;
  return { request, encodingFormat: format };
}

/** The reply an OpenAI client expects, vectors as floats or base64 as it asked. */
export function encodeOpenAiEmbeddingResponse(
  result: EmbeddingResult,
  model: string,
  format: OpenAiEncodingFormat,
  inputTokens: number,
): Record<string, unknown> {
  return {
    object: 'list',
    data: result.vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: format === 'base64' ? encodeFloat32Base64(vector) : vector,
    })),
    model,
    usage: { prompt_tokens: inputTokens, total_tokens: inputTokens },
  };
}

/**
 * OpenAI and OpenAI-compatible upstreams (and Azure's deployments). The gateway asks for
 * base64, as the official SDK does: exact float32 values in a quarter of the bytes; replies in
 * floats (hosts that ignore the field) are read too.
 */
export const openaiEmbeddingsWire: EmbeddingUpstreamWire = {
  id: 'openai-embeddings',
  errorProtocol: 'openai-chat',
  maxInputsPerCall: () => OPENAI_MAX_INPUTS,
  encodeRequest(request, upstreamModel) {
    return JSON.stringify({
      model: upstreamModel,
      input: request.inputs,
      encoding_format: 'base64',
      ...(request.dimensions === undefined ? {} : { dimensions: request.dimensions }),
      ...(request.user === undefined ? {} : { user: request.user }),
    });
  },
  decodeResponse(body, inputCount) {
    const data = asRecord(body)?.data;
    if (!Array.isArray(data) || data.length !== inputCount) throw invalidEmbeddingReply(`expected ${inputCount} embeddings in "data"`);
    const vectors: number[][] = new Array(inputCount);
    for (const item of data) {
      const entry = asRecord(item);
      const index = readCount(entry?.index);
      if (entry === undefined || index === undefined || index >= inputCount) throw invalidEmbeddingReply('an embedding without a valid "index"');
      vectors[index] = typeof entry.embedding === 'string' ? decodeFloat32Base64(entry.embedding) : readVector(entry.embedding, `data[${index}].embedding`);
    }
    assertComplete(vectors);
    return { vectors, inputTokens: readCount(asRecord(asRecord(body)?.usage)?.prompt_tokens) };
  },
};
