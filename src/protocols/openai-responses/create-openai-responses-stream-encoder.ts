import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { ensureIdPrefix } from '../openai-chat/ensure-id-prefix.ts';
import type { StreamEncoder, StreamEncoderOptions } from '../protocol-codec.ts';
import { closeOutputItem } from './close-responses-output-item.ts';
import { appendOutputItemDelta, openOutputItem } from './open-responses-output-item.ts';
import { failResponsesStream, finishResponsesStream } from './end-responses-stream.ts';
import { createResponsesEncoderState, startResponsesStream } from './responses-encoder-state.ts';

/**
 * Canonical events → the Responses SSE sequence the openai SDK and Codex accept: lifecycle
 * events carrying the whole response (one id throughout), each output item added, filled and
 * done with its complete form, and a final response.completed/incomplete with every item.
 * The state lives in `responses-encoder-state.ts`; each event family has its own file.
 */
export function createOpenAiResponsesStreamEncoder(context: RuntimeContext, options: StreamEncoderOptions = {}): StreamEncoder {
  const state = createResponsesEncoderState(context, options.customTools, options.responseState, options.leadingItems);
  return {
    push(event: StreamEvent): string {
      if (state.closed) return '';
      switch (event.type) {
        case 'response-start':
          if (state.started) return '';
          state.id = ensureIdPrefix(event.id, 'resp_', context);
          state.createdAt = Math.floor(event.createdAt / 1000);
          state.model = event.model;
          return startResponsesStream(state);
        case 'text-start':
          return openOutputItem(state, event.id, 'message');
        case 'reasoning-start':
          return openOutputItem(state, event.id, 'reasoning');
        case 'tool-call-start':
          return openOutputItem(state, event.id, state.customTools.has(event.name) ? 'custom_tool_call' : 'function_call', {
            callId: event.callId,
            name: event.name,
          });
        case 'text-delta':
        case 'reasoning-delta':
          return appendOutputItemDelta(state, event.id, event.delta);
        case 'tool-call-delta':
          return appendOutputItemDelta(state, event.id, event.argumentsDelta);
        case 'text-end':
        case 'tool-call-end':
          return state.current?.blockId === event.id ? closeOutputItem(state) : '';
        case 'reasoning-end':
          return state.current?.blockId === event.id ? closeOutputItem(state, event.providerMetadata?.openai?.encryptedContent) : '';
        case 'usage':
          state.usage = event.usage;
          return startResponsesStream(state);
        case 'response-end':
          return finishResponsesStream(state, event.finishReason, event.usage);
        case 'error':
          return failResponsesStream(state, event.error);
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
    },
    end(): string {
      return '';
    },
  };
}
