import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { StreamDecoder } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { closeAllDecodedBlocks, closeDecodedBlock, createAnthropicDecoderState, type AnthropicDecoderState } from './anthropic-decoder-state.ts';
import { decodeBlockDelta, startDecodedBlock } from './decode-anthropic-content-block.ts';
import { decodeMessageDelta, decodeMessageStart, decodeMessageStop, decodeUpstreamError, malformedAnthropicStream } from './decode-anthropic-message-events.ts';

function handle(state: AnthropicDecoderState, name: string, payload: Record<string, unknown>): StreamEvent[] {
  switch (name) {
    case 'message_start':
      return decodeMessageStart(state, payload);
    case 'content_block_start': {
      if (typeof payload.index !== 'number' || !isRecord(payload.content_block)) return [];
      // A repeated index would orphan the open block; close it so the lifecycle stays whole.
      const previous = state.open.get(payload.index);
      return [...(previous ? [closeDecodedBlock(previous)] : []), ...startDecodedBlock(state, payload.index, payload.content_block)];
    }
    case 'content_block_delta':
      return typeof payload.index === 'number' && isRecord(payload.delta) ? decodeBlockDelta(state, payload.index, payload.delta) : [];
    case 'content_block_stop': {
      const block = typeof payload.index === 'number' ? state.open.get(payload.index) : undefined;
      if (!block) return [];
      state.open.delete(payload.index as number);
      return [closeDecodedBlock(block)];
    }
    case 'message_delta':
      return decodeMessageDelta(state, payload);
    case 'message_stop':
      return decodeMessageStop(state);
    case 'error':
      state.done = true;
      return [decodeUpstreamError(payload)];
    default:
      // ping and event types added after this was written.
      return [];
  }
}

/**
 * Anthropic SSE → canonical events. Block ids are the upstream's block indices. Usage is
 * cumulative: input counts from `message_start`, output (and any overrides) from `message_delta`.
 * The state lives in `anthropic-decoder-state.ts`; each event family has its own file.
 */
export function createAnthropicStreamDecoder(context: RuntimeContext): StreamDecoder {
  const state = createAnthropicDecoderState(context);
  return {
    push(message: SseMessage): StreamEvent[] {
      if (state.done) return [];
      let payload: unknown;
      try {
        payload = JSON.parse(message.data);
      } catch {
        state.done = true;
        return [...closeAllDecodedBlocks(state), malformedAnthropicStream(`an event's data is not JSON (${JSON.stringify(message.data.slice(0, 120))})`)];
      }
      if (!isRecord(payload)) return [];
      const name = message.event ?? (typeof payload.type === 'string' ? payload.type : '');
      return handle(state, name, payload);
    },
    end(): StreamEvent[] {
      if (state.done) return [];
      state.done = true;
      return [...closeAllDecodedBlocks(state), malformedAnthropicStream('the upstream stream ended before message_stop')];
    },
  };
}
