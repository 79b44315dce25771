import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { PassthroughBodyInput, PassthroughLane, PassthroughStream, StreamEncoderOptions } from '../protocol-codec.ts';
import { countStringFieldChars } from '../shared/count-string-field-chars.ts';
import { SsePassthroughStream, type SsePassthroughRules } from '../shared/sse-passthrough-stream.ts';
import { isRecord } from '../shared/is-record.ts';
import { appendJsonMember, serializeClientBody } from '../shared/serialize-client-body.ts';
import { createOpenAiChatStreamEncoder } from './create-openai-chat-stream-encoder.ts';
import { OpenAiChatUsageTap } from './create-openai-chat-usage-tap.ts';

/** The fields of a chat chunk that carry generated text or tool arguments. */
const DELTA_FIELDS = ['"content":"', '"reasoning_content":"', '"arguments":"'];

/**
 * Chat streams report usage only when asked, so the gateway asks on the client's behalf
 * (`stream_options.include_usage`) to meter, and hides that last usage chunk from a client
 * that did not ask for it.
 */
function upstreamBody(input: PassthroughBodyInput): string {
  const { body, rawBody, upstreamModel, stream } = input;
  const needsUsage = stream && !(isRecord(body.stream_options) && body.stream_options.include_usage === true);
  if (rawBody !== undefined && body.model === upstreamModel) {
    if (!needsUsage) return rawBody;
    if (body.stream_options === undefined) return appendJsonMember(rawBody, '"stream_options":{"include_usage":true}');
  }
  if (!stream) return serializeClientBody({ ...body, model: upstreamModel });
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  return serializeClientBody({ ...body, model: upstreamModel, stream_options: { ...streamOptions, include_usage: true } });
}

/** The usage-only chunk (`"choices":[]` with a usage object) the gateway asked for itself. */
function isUsageChunk(message: Pick<SseMessage, 'data'>): boolean {
  return message.data.includes('"choices":[]') && message.data.includes('"usage":{');
}

const rules: SsePassthroughRules = {
  mark: (message) => {
    if (message.data === '[DONE]') return 'end';
    return message.data.startsWith('{"error"') ? 'error' : undefined;
  },
  countDeltaChars: (data) => countStringFieldChars(data, DELTA_FIELDS),
  encodeError: (error, context, options) => createOpenAiChatStreamEncoder(context, { ...options, format: 'sse' }).push({ type: 'error', error }),
  addCost: (data, usd) => {
    if (!isUsageChunk({ data })) return undefined;
    try {
      const chunk: unknown = JSON.parse(data);
      if (!isRecord(chunk) || !isRecord(chunk.usage)) return undefined;
      chunk.usage.cost = usd;
      return JSON.stringify(chunk);
    } catch {
      return undefined;
    }
  },
};

function openStream(context: RuntimeContext, options: StreamEncoderOptions): PassthroughStream {
  return new SsePassthroughStream(rules, new OpenAiChatUsageTap(), context, options, options.includeUsage === true ? undefined : isUsageChunk);
}

export const openAiChatPassthroughLane: PassthroughLane = {
  upstreamBody,
  openStream,
  // OpenAI's SSE readers ignore comment lines.
  keepAliveFrame: ': keep-alive\n\n',
};
