import { createHash } from 'node:crypto';
import type { JsonReply } from './json-reply.ts';
import { awsError, providerError } from './provider-errors.ts';
import type { SimulatorScript } from './simulator-script.ts';

/**
 * Embeddings as each provider serves them, with the request rules each enforces (refused in
 * its own shape): OpenAI `/v1/embeddings` (and Azure's deployments), the Gemini API's
 * `:embedContent` / `:batchEmbedContents`, Vertex AI's `:predict`, and Bedrock InvokeModel
 * for Titan Text Embeddings and Cohere Embed. Vectors are deterministic per text and model
 * (a hash), unit length, so tests can compare them across routes.
 */
export type SimEmbeddingWire = 'openai' | 'azure-openai' | 'gemini-single' | 'gemini-batch' | 'vertex-predict' | 'bedrock-invoke';

const OPENAI_INVALID_INPUT = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

/** The dimensions a model returns by default. */
export function defaultDimensions(model: string): number {
  if (/text-embedding-3-large|gemini-embedding/.test(model)) return 3072;
  if (/text-embedding-00[45]|multilingual-embedding/.test(model)) return 768;
  if (/titan-embed-text-v2|cohere\.embed/.test(model)) return 1024;
  return 1536;
}

/** The vector the simulator gives `text` on `model`: reproducible, unit length. */
export function simulatedVector(model: string, text: string, dimensions: number): number[] {
  const vector: number[] = [];
  let block = 0;
  while (vector.length < dimensions) {
    const digest = createHash('sha256').update(`${model}\u0000${text}\u0000${block}`).digest();
    for (let offset = 0; offset + 4 <= digest.length && vector.length < dimensions; offset += 4) vector.push(digest.readInt32LE(offset) / 2 ** 31);
    block += 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  // Rounded to float32, as every provider returns them.
  return vector.map((value) => Math.fround(value / norm));
}

/** Tokens the simulator counts for a text: about four characters each, at least one. */
export function simulatedTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function float32Base64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

const ok = (body: unknown, headers: Record<string, string> = {}): JsonReply => ({ status: 200, body, headers });
const openAiInvalid = (message: string, param: string | null = null): JsonReply => ({
  status: 400,
  body: { error: { message, type: 'invalid_request_error', param, code: null } },
  headers: {},
});
const googleInvalid = (message: string): JsonReply => ({ status: 400, body: providerError('gemini-generate-content', 400, message).body, headers: {} });
const awsInvalid = (message: string): JsonReply => {
  const error = awsError(400, message);
  return { status: 400, body: error.body, headers: error.headers };
};
const malformed = (detail: string): JsonReply => awsInvalid(`Malformed input request: ${detail}, please reformat your input and try again.`);

function record(body: unknown): Record<string, unknown> | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

function scriptedTokens(script: SimulatorScript, texts: string[]): number {
  return script.usage?.input ?? texts.reduce((sum, text) => sum + simulatedTokens(text), 0);
}

export function answerEmbeddings(wire: SimEmbeddingWire, model: string, body: unknown, script: SimulatorScript): JsonReply {
  switch (wire) {
    case 'openai':
    case 'azure-openai':
      return answerOpenAi(model, body, script, wire === 'azure-openai');
    case 'gemini-single':
    case 'gemini-batch':
      return answerGemini(wire, model, body);
    case 'vertex-predict':
      return answerVertex(model, body, script);
    case 'bedrock-invoke':
      return /cohere\.embed/.test(model) ? answerCohere(model, body, script) : answerTitan(model, body, script);
  }
}

/** Azure names the deployment in the path and ignores a body `model`; OpenAI requires it. */
function answerOpenAi(model: string, body: unknown, script: SimulatorScript, azure: boolean): JsonReply {
  const request = record(body);
  if (request === undefined) return openAiInvalid('We could not parse the JSON body of your request.');
  if (!azure && (typeof request.model !== 'string' || request.model === '')) return openAiInvalid('you must provide a model parameter');
  const input = request.input;
  if (input === undefined) return openAiInvalid("'input' is a required property");
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((item) => typeof item === 'string') ? (input as string[]) : undefined;
  if (texts === undefined || texts.length === 0 || texts.length > 2048 || texts.some((text) => text === ''))
    return openAiInvalid(OPENAI_INVALID_INPUT, 'input');
  const format = request.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64')
    return openAiInvalid(`'${String(format)}' is not one of ['float', 'base64'] - 'encoding_format'`, 'encoding_format');
  let dimensions = defaultDimensions(model);
  if (request.dimensions !== undefined) {
    if (!model.startsWith('text-embedding-3')) return openAiInvalid('This model does not support specifying dimensions.', 'dimensions');
    if (
      typeof request.dimensions !== 'number' ||
      !Number.isInteger(request.dimensions) ||
      request.dimensions < 1 ||
      request.dimensions > defaultDimensions(model)
    ) {
      return openAiInvalid(`Invalid value for 'dimensions' = ${String(request.dimensions)}. Must be between 1 and ${defaultDimensions(model)}.`, 'dimensions');
    }
    dimensions = request.dimensions;
  }
  const tokens = scriptedTokens(script, texts);
  return ok({
    object: 'list',
    data: texts.map((text, index) => {
      const vector = simulatedVector(model, text, dimensions);
      return { object: 'embedding', index, embedding: format === 'base64' ? float32Base64(vector) : vector };
    }),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

function geminiText(content: unknown, where: string): string | JsonReply {
  const parts = record(content)?.parts;
  if (!Array.isArray(parts) || parts.length === 0) return googleInvalid(`* ${where}.parts: contents.parts must not be empty.\n`);
  const texts = parts.map((part) => record(part)?.text);
  if (!texts.every((text) => typeof text === 'string')) return googleInvalid(`* ${where}.parts: only text parts can be embedded by this model.\n`);
  return (texts as string[]).join('\n');
}

function geminiDimensions(model: string, value: unknown, where: string): number | JsonReply {
  if (value === undefined) return defaultDimensions(model);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > defaultDimensions(model)) {
    return googleInvalid(`* ${where}.output_dimensionality: Invalid output dimensionality ${String(value)}.\n`);
  }
  return value;
}

function answerGemini(wire: 'gemini-single' | 'gemini-batch', model: string, body: unknown): JsonReply {
  const request = record(body);
  if (request === undefined) return googleInvalid('Invalid JSON payload received.');
  if (wire === 'gemini-single') {
    const text = geminiText(request.content, 'EmbedContentRequest.content');
    if (typeof text !== 'string') return text;
    const dimensions = geminiDimensions(model, request.outputDimensionality, 'EmbedContentRequest');
    if (typeof dimensions !== 'number') return dimensions;
    return ok({ embedding: { values: simulatedVector(model, text, dimensions) } });
  }
  const requests = request.requests;
  if (!Array.isArray(requests) || requests.length === 0) return googleInvalid('* BatchEmbedContentsRequest.requests: requests must not be empty.\n');
  if (requests.length > 100) return googleInvalid('* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch\n');
  const embeddings: Array<{ values: number[] }> = [];
  for (const [index, item] of requests.entries()) {
    const entry = record(item) ?? {};
    const where = `BatchEmbedContentsRequest.requests[${index}]`;
    // Each request must name the model of the URL, in its `models/` form.
    if (entry.model !== `models/${model}`) return googleInvalid(`* ${where}.model: Model name must match the model in the URL (models/${model}).\n`);
    const text = geminiText(entry.content, `${where}.content`);
    if (typeof text !== 'string') return text;
    const dimensions = geminiDimensions(model, entry.outputDimensionality, where);
    if (typeof dimensions !== 'number') return dimensions;
    embeddings.push({ values: simulatedVector(model, text, dimensions) });
  }
  return ok({ embeddings });
}

function answerVertex(model: string, body: unknown, script: SimulatorScript): JsonReply {
  const request = record(body);
  const instances = request?.instances;
  if (!Array.isArray(instances) || instances.length === 0) return googleInvalid('Invalid request: instances must be a non-empty list.');
  const limit = /gemini-embedding/.test(model) ? 1 : 250;
  if (instances.length > limit) {
    return googleInvalid(
      `Unable to submit request because ${model} supports up to ${limit} instance${limit === 1 ? '' : 's'} per request; the request has ${instances.length}.`,
    );
  }
  const texts: string[] = [];
  for (const [index, instance] of instances.entries()) {
    const content = record(instance)?.content;
    if (typeof content !== 'string' || content === '') return googleInvalid(`Invalid request: instances[${index}].content must be a non-empty string.`);
    texts.push(content);
  }
  const dimensions = geminiDimensions(model, record(request?.parameters)?.outputDimensionality, 'PredictRequest.parameters');
  if (typeof dimensions !== 'number') return dimensions;
  const scripted = script.usage?.input;
  return ok({
    predictions: texts.map((text, index) => ({
      embeddings: {
        statistics: { truncated: false, token_count: scripted === undefined ? simulatedTokens(text) : index === 0 ? scripted : 0 },
        values: simulatedVector(model, text, dimensions),
      },
    })),
    metadata: { billableCharacterCount: texts.reduce((sum, text) => sum + text.length, 0) },
  });
}

function extraneous(request: Record<string, unknown>, allowed: readonly string[]): JsonReply | undefined {
  const extra = Object.keys(request).find((key) => !allowed.includes(key));
  return extra === undefined ? undefined : malformed(`#: extraneous key [${extra}] is not permitted`);
}

function answerTitan(model: string, body: unknown, script: SimulatorScript): JsonReply {
  if (!/titan-embed/.test(model)) return awsInvalid('The provided model identifier is invalid.');
  const request = record(body);
  if (request === undefined) return malformed('#: expected type: JSONObject');
  const v2 = /titan-embed-text-v2/.test(model);
  const refused = extraneous(request, v2 ? ['inputText', 'dimensions', 'normalize', 'embeddingTypes'] : ['inputText']);
  if (refused) return refused;
  if (!('inputText' in request)) return malformed('#: required key [inputText] not found');
  if (typeof request.inputText !== 'string')
    return malformed('#/inputText: expected type: String, found: ' + (Array.isArray(request.inputText) ? 'JSONArray' : typeof request.inputText));
  if (request.inputText === '') return malformed('#/inputText: expected minLength: 1, actual: 0');
  let dimensions = defaultDimensions(model);
  if (request.dimensions !== undefined) {
    if (![256, 512, 1024].includes(request.dimensions as number)) return malformed(`#/dimensions: ${String(request.dimensions)} is not a valid enum value`);
    dimensions = request.dimensions as number;
  }
  const tokens = scriptedTokens(script, [request.inputText]);
  const embedding = simulatedVector(model, request.inputText, dimensions);
  return ok(
    { embedding, inputTextTokenCount: tokens, ...(v2 ? { embeddingsByType: { float: embedding } } : {}) },
    { 'x-amzn-bedrock-input-token-count': String(tokens) },
  );
}

const COHERE_INPUT_TYPES = ['search_document', 'search_query', 'classification', 'clustering', 'image'];

function answerCohere(model: string, body: unknown, script: SimulatorScript): JsonReply {
  const request = record(body);
  if (request === undefined) return malformed('#: expected type: JSONObject');
  const refused = extraneous(request, ['texts', 'images', 'input_type', 'truncate', 'embedding_types']);
  if (refused) return refused;
  if (!('input_type' in request)) return malformed('#: required key [input_type] not found');
  if (!COHERE_INPUT_TYPES.includes(request.input_type as string)) return malformed(`#/input_type: ${String(request.input_type)} is not a valid enum value`);
  const texts = request.texts;
  if (!Array.isArray(texts) || !texts.every((text) => typeof text === 'string')) return malformed('#/texts: expected type: JSONArray');
  if (texts.length > 96) return malformed(`#/texts: expected maxItems: 96, actual: ${texts.length}`);
  const tooLong = (texts as string[]).findIndex((text) => text.length > 2048);
  if (tooLong !== -1) return malformed(`#/texts/${tooLong}: expected maxLength: 2048, actual: ${(texts as string[])[tooLong]!.length}`);
  const tokens = scriptedTokens(script, texts as string[]);
  return ok(
    {
      id: createHash('sha256').update(JSON.stringify(texts)).digest('hex').slice(0, 36),
      texts,
      embeddings: (texts as string[]).map((text) => simulatedVector(model, text, defaultDimensions(model))),
      response_type: 'embeddings_floats',
    },
    { 'x-amzn-bedrock-input-token-count': String(tokens) },
  );
}
