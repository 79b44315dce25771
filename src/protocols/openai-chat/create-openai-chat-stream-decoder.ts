import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { StreamDecoder } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { closeChatBlock, createChatDecoderState, failChatStream, type ChatDecoderState } from './chat-decoder-state.ts';
import { convertOpenAiUsage } from './convert-openai-usage.ts';
import { decodeChatChoice } from './decode-chat-choice.ts';
import { decodeOpenAiError } from './decode-openai-error.ts';

/** `[DONE]` or the end of the body: `response-end` with the held finish reason and usage, or an error without one. */
function finishChatStream(state: ChatDecoderState, events: StreamEvent[]): StreamEvent[] {
  if (state.finished) return events;
  closeChatBlock(state, events);
  state.finished = true;
  const { finishReason, usage } = state;
  if (!finishReason) {
    events.push({
      type: 'error',
      error: new GatewayError('upstream_invalid_response', 'The upstream stream ended early, before a finish reason.'),
    });
    return events;
  }
  events.push(usage ? { type: 'response-end', finishReason, usage } : { type: 'response-end', finishReason });
  return events;
}

function decodeChunk(state: ChatDecoderState, chunk: Record<string, unknown>): StreamEvent[] {
  const events: StreamEvent[] = [];
  if (!state.started) {
    state.started = true;
    events.push({
      type: 'response-start',
      id: typeof chunk.id === 'string' ? chunk.id : state.context.generateId('chatcmpl-'),
      model: typeof chunk.model === 'string' ? chunk.model : '',
      createdAt: typeof chunk.created === 'number' ? chunk.created * 1000 : state.context.now(),
    });
  }
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (isRecord(choice)) {
    const failed = decodeChatChoice(state, choice, events);
    if (failed) return failed;
  }
  const reported = convertOpenAiUsage(chunk.usage);
  if (reported) {
    state.usage = reported;
    events.push({ type: 'usage', usage: reported });
  }
  return events;
}

/**
 * OpenAI chunks → canonical events. Chat chunks have no block boundaries, so they are
 * synthesised: a block opens at its first delta and closes when another kind starts or the
 * choice finishes. `response-end` waits for `[DONE]` (or the end of the body) because the usage
 * chunk follows the finish reason. The state lives in `chat-decoder-state.ts`.
 */
export function createOpenAiChatStreamDecoder(context: RuntimeContext): StreamDecoder {
  const state = createChatDecoderState(context);
  return {
    push(message: SseMessage): StreamEvent[] {
      if (state.finished) return [];
      const data = message.data.trim();
      if (data === '') return [];
      if (data === '[DONE]') return finishChatStream(state, []);
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        return failChatStream(
          state,
          [],
          new GatewayError('upstream_invalid_response', `The upstream sent a stream chunk that is not JSON: ${data.slice(0, 200)}`),
        );
      }
      if (!isRecord(chunk)) return [];
      if (chunk.error !== undefined || message.event === 'error') {
        const { message: text, type } = decodeOpenAiError(200, chunk);
        return failChatStream(state, [], new GatewayError('upstream_error', text, type === undefined ? {} : { upstreamType: type }));
      }
      return decodeChunk(state, chunk);
    },
    end(): StreamEvent[] {
      return finishChatStream(state, []);
    },
  };
}
