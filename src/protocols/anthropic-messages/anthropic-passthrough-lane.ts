import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { PassthroughLane, PassthroughStream, StreamEncoderOptions } from '../protocol-codec.ts';
import { countStringFieldChars } from '../shared/count-string-field-chars.ts';
import { SsePassthroughStream, type SsePassthroughRules } from '../shared/sse-passthrough-stream.ts';
import { rewriteBodyModel } from '../shared/serialize-client-body.ts';
import { createAnthropicStreamEncoder } from './create-anthropic-stream-encoder.ts';
import { createAnthropicUsageTap } from './create-anthropic-usage-tap.ts';

/** Generated text, thinking, tool input, and thinking shown opaquely (signatures, redacted blocks). */
const DELTA_FIELDS = ['"text":"', '"thinking":"', '"partial_json":"', '"signature":"', '"data":"'];

const rules: SsePassthroughRules = {
  mark: (message) => {
    if (message.event === 'message_stop') return 'end';
    return message.event === 'error' ? 'error' : undefined;
  },
  countDeltaChars: (data) => countStringFieldChars(data, DELTA_FIELDS),
  encodeError: (error, context) => createAnthropicStreamEncoder(context).push({ type: 'error', error }),
};

function openStream(context: RuntimeContext, options: StreamEncoderOptions): PassthroughStream {
  return new SsePassthroughStream(rules, createAnthropicUsageTap(), context, options);
}

export const anthropicPassthroughLane: PassthroughLane = {
  upstreamBody: ({ body, rawBody, upstreamModel }) => rewriteBodyModel(body, rawBody, upstreamModel),
  openStream,
  // Anthropic streams have a `ping` event of their own.
  keepAliveFrame: 'event: ping\ndata: {"type": "ping"}\n\n',
};
