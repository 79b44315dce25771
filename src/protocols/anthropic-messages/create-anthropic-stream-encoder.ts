import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { StreamEncoder } from '../protocol-codec.ts';
import { createAnthropicEncoderState, type AnthropicEncoderState } from './anthropic-encoder-state.ts';
import { appendAnthropicBlockDelta, endAnthropicBlock, startAnthropicBlock } from './encode-anthropic-content-block.ts';
import { encodeAnthropicReasoningEvent } from './encode-anthropic-reasoning-events.ts';
import { failAnthropicStream, finishAnthropicStream } from './end-anthropic-stream.ts';
import { encodeAnthropicStopReason } from './map-anthropic-stop-reason.ts';
import { sanitizeAnthropicToolId } from './sanitize-anthropic-tool-id.ts';

function encode(state: AnthropicEncoderState, input: StreamEvent): string {
  switch (input.type) {
    case 'response-start':
      state.pendingStart = { id: input.id, model: input.model };
      return '';
    case 'usage':
      state.usage = input.usage;
      return '';
    case 'text-start':
      return startAnthropicBlock(state, input.id, 'text', { type: 'text', text: '' });
    case 'text-delta':
      return input.delta === '' ? '' : appendAnthropicBlockDelta(state, input.id, 'text', { type: 'text_delta', text: input.delta });
    case 'text-end':
      return endAnthropicBlock(state, input.id);
    case 'reasoning-start':
    case 'reasoning-delta':
    case 'reasoning-end':
      return encodeAnthropicReasoningEvent(state, input);
    case 'tool-call-start':
      state.hasToolCalls = true;
      return startAnthropicBlock(state, input.id, 'tool_use', {
        type: 'tool_use',
        id: sanitizeAnthropicToolId(input.callId, state.context),
        name: input.name,
        input: {},
      });
    case 'tool-call-delta':
      return input.argumentsDelta === ''
        ? ''
        : appendAnthropicBlockDelta(state, input.id, 'tool_use', { type: 'input_json_delta', partial_json: input.argumentsDelta });
    case 'tool-call-end':
      return endAnthropicBlock(state, input.id);
    case 'response-end': {
      const { stopReason, stopSequence } = encodeAnthropicStopReason(input.finishReason, state.hasToolCalls);
      return finishAnthropicStream(state, input.usage, stopReason, stopSequence);
    }
    case 'error':
      return failAnthropicStream(state, input.error);
    default: {
      const unreachable: never = input;
      throw new Error(`unknown stream event ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * Canonical events → Anthropic SSE exactly as `@anthropic-ai/sdk`'s MessageStream and Claude
 * Code accumulate it: `message_start` (then `ping`), blocks with indices 0..n-1 one at a time,
 * and a single `message_delta` + `message_stop` at `response-end`, because usage from OpenAI
 * upstreams arrives only after the finish reason. The state lives in
 * `anthropic-encoder-state.ts`; each event family has its own file.
 */
export function createAnthropicStreamEncoder(context: RuntimeContext): StreamEncoder {
  const state = createAnthropicEncoderState(context);
  return {
    push(input: StreamEvent): string {
      return state.finished ? '' : encode(state, input);
    },
    end(): string {
      return '';
    },
  };
}
