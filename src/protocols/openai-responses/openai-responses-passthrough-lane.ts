import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { PassthroughLane, PassthroughStream, StreamEncoderOptions } from '../protocol-codec.ts';
import { countStringFieldChars } from '../shared/count-string-field-chars.ts';
import { SsePassthroughStream, type SsePassthroughRules } from '../shared/sse-passthrough-stream.ts';
import { rewriteBodyModel } from '../shared/serialize-client-body.ts';
import { createOpenAiResponsesStreamEncoder } from './create-openai-responses-stream-encoder.ts';
import { createOpenAiResponsesUsageTap } from './create-openai-responses-usage-tap.ts';

/** Every text, reasoning and argument delta event carries its text in `delta`. */
const DELTA_FIELDS = ['"delta":"'];

const rules: SsePassthroughRules = {
  mark: (message) => {
    if (message.event === 'response.completed' || message.event === 'response.incomplete') return 'end';
    return message.event === 'response.failed' || message.event === 'error' ? 'error' : undefined;
  },
  countDeltaChars: (data) => countStringFieldChars(data, DELTA_FIELDS),
  encodeError: (error, context) => createOpenAiResponsesStreamEncoder(context).push({ type: 'error', error }),
};

function openStream(context: RuntimeContext, options: StreamEncoderOptions): PassthroughStream {
  return new SsePassthroughStream(rules, createOpenAiResponsesUsageTap(), context, options);
}

export const openAiResponsesPassthroughLane: PassthroughLane = {
  upstreamBody: ({ body, rawBody, upstreamModel }) => rewriteBodyModel(body, rawBody, upstreamModel),
  openStream,
  // OpenAI's SSE readers ignore comment lines.
  keepAliveFrame: ': keep-alive\n\n',
};
