import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { StreamDecoder } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeReasoningDelta, decodeTextDelta, decodeToolArgumentsDelta } from './decode-responses-deltas.ts';
import { decodeOutputItemAdded, decodeOutputItemDone } from './decode-responses-output-item.ts';
import { decodeResponseDone, decodeResponseFailed } from './decode-responses-terminal-event.ts';
import { createResponsesDecoderState, failDecodedStream, str, type ResponsesDecoderState } from './responses-decoder-state.ts';

function handle(state: ResponsesDecoderState, event: Record<string, unknown>, type: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  const response = isRecord(event.response) ? event.response : undefined;
  if (!state.started && response) {
    state.started = true;
    events.push({
      type: 'response-start',
      id: typeof response.id === 'string' ? response.id : state.context.generateId('resp_'),
      model: str(response.model),
      createdAt: typeof response.created_at === 'number' ? response.created_at * 1000 : state.context.now(),
    });
  }
  switch (type) {
    case 'response.output_item.added':
      decodeOutputItemAdded(state, events, event);
      return events;
    case 'response.output_text.delta':
    case 'response.refusal.delta':
      decodeTextDelta(state, events, str(event.item_id), str(event.delta));
      return events;
    case 'response.function_call_arguments.delta':
    case 'response.custom_tool_call_input.delta':
      decodeToolArgumentsDelta(state, events, event);
      return events;
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta':
      decodeReasoningDelta(state, events, event);
      return events;
    case 'response.output_item.done':
      decodeOutputItemDone(state, events, event);
      return events;
    case 'response.completed':
    case 'response.incomplete':
      return decodeResponseDone(state, events, type, response);
    case 'response.failed':
    case 'error':
      return decodeResponseFailed(state, events, type, event, response);
    default:
      return events;
  }
}

/**
 * Responses SSE from an OpenAI upstream → canonical events. The state lives in
 * `responses-decoder-state.ts`; each event family has its own file.
 */
export function createOpenAiResponsesStreamDecoder(context: RuntimeContext): StreamDecoder {
  const state = createResponsesDecoderState(context);
  return {
    push(message: SseMessage): StreamEvent[] {
      if (state.finished) return [];
      const data = message.data.trim();
      if (data === '' || data === '[DONE]') return [];
      let event: unknown;
      try {
        event = JSON.parse(data);
      } catch {
        return failDecodedStream(
          state,
          [],
          new GatewayError('upstream_invalid_response', `The upstream sent a stream event that is not JSON: ${data.slice(0, 200)}`),
        );
      }
      if (!isRecord(event)) return [];
      const type = typeof event.type === 'string' ? event.type : (message.event ?? '');
      return handle(state, event, type);
    },
    end(): StreamEvent[] {
      if (state.finished) return [];
      return failDecodedStream(state, [], new GatewayError('upstream_invalid_response', 'The upstream stream ended early, before response.completed.'));
    },
  };
}
