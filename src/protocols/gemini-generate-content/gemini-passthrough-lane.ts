import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { ClientRequestInput, PassthroughLane, PassthroughStream, RequestPeek, StreamEncoderOptions } from '../protocol-codec.ts';
import { countStringFieldChars } from '../shared/count-string-field-chars.ts';
import { SsePassthroughStream, type SsePassthroughRules } from '../shared/sse-passthrough-stream.ts';
import { isRecord } from '../shared/is-record.ts';
import { lacks } from '../shared/peek-body.ts';
import { findInvalidCount, type InvalidField } from '../shared/find-invalid-count.ts';
import { serializeClientBody } from '../shared/serialize-client-body.ts';
import { encodeGeminiStreamError } from './encode-gemini-error.ts';
import { createGeminiUsageTap } from './create-gemini-usage-tap.ts';
import { peekGeminiFeatures } from './peek-gemini-features.ts';
import { withFeatures } from '../shared/collect-tool-features.ts';

/** Gemini names the model and the streaming choice in the URL path, not the body. */
export function peekGeminiRequest(input: ClientRequestInput): RequestPeek {
  const body = input.body;
  const missing = !isRecord(body) || lacks(body, 'contents');
  const peek: RequestPeek = { model: input.pathModel, stream: input.pathStream ?? false, includeUsage: true, missingField: missing ? 'contents' : undefined };
  const invalid = isRecord(body) ? findInvalidGenerationCount(body) : undefined;
  if (invalid !== undefined) peek.invalidField = invalid;
  return withFeatures(peek, peekGeminiFeatures(body));
}

/**
 * The output cap and number of candidates, in either spelling the REST API accepts (the
 * camelCase one wins when both are given, as in normalizeGeminiKeys).
 */
function findInvalidGenerationCount(body: Record<string, unknown>): InvalidField | undefined {
  const [config, configName] =
    body.generationConfig !== undefined ? [body.generationConfig, 'generationConfig'] : [body.generation_config, 'generation_config'];
  if (!isRecord(config)) return undefined;
  for (const [camel, snake] of [
    ['maxOutputTokens', 'max_output_tokens'],
    ['candidateCount', 'candidate_count'],
  ] as const) {
    const field = config[camel] !== undefined ? camel : snake;
    const invalid = findInvalidCount(config, [field], `${configName}.`);
    if (invalid !== undefined) return invalid;
  }
  return undefined;
}

const DELTA_FIELDS = ['"text":"'];

/**
 * Upstream Gemini streams are always SSE (`alt=sse`); a client that asked for the streamed
 * JSON array gets each event's payload as one array element instead.
 */
const rules: SsePassthroughRules = {
  mark: (message) => {
    if (message.data.startsWith('{"error"')) return 'error';
    return message.data.includes('"finishReason"') ? 'end' : undefined;
  },
  countDeltaChars: (data) => countStringFieldChars(data, DELTA_FIELDS),
  encodeError: (error) => `data: ${JSON.stringify(encodeGeminiStreamError(error))}\n\n`,
};

function openStream(context: RuntimeContext, options: StreamEncoderOptions): PassthroughStream {
  const sse = new SsePassthroughStream(rules, createGeminiUsageTap(), context, options);
  if (options.format !== 'json-array') return sse;
  let items = 0;
  const separator = () => (items === 0 ? '[' : ',\r\n');
  return {
    observe: (message) => sse.observe(message),
    forwardsAsIs: () => false,
    frame(message) {
      const item = separator() + message.data;
      items += 1;
      return item;
    },
    end: () => (items === 0 ? '[]' : ']'),
    error: (error) => `${separator()}${JSON.stringify(encodeGeminiStreamError(error))}]`,
    usage: () => sse.usage(),
    get deliveredChars() {
      return sse.deliveredChars;
    },
  };
}

export const geminiPassthroughLane: PassthroughLane = {
  // The model is in the URL, so the body goes as it came.
  upstreamBody: ({ body, rawBody }) => rawBody ?? serializeClientBody(body),
  openStream,
  // The genai SDK treats any non-data segment as broken JSON, so Gemini clients get nothing.
  keepAliveFrame: undefined,
};
