import type { StreamEvent } from '../../core/stream-event.ts';
import { isRecord } from '../shared/is-record.ts';
import { closeChatBlock, ensureChatBlock, failChatStream, type ChatDecoderState } from './chat-decoder-state.ts';
import { decodeChatToolFragment } from './decode-chat-tool-fragment.ts';
import { mapOpenAiFinishReason } from './map-openai-finish-reason.ts';

/**
 * A chunk's first choice: reasoning, then text and refusal, then tool call fragments, then the
 * finish reason (which closes the open block; `response-end` waits for the usage chunk).
 * Returns the events to emit now, ending with an error when the stream cannot be followed.
 */
export function decodeChatChoice(state: ChatDecoderState, choice: Record<string, unknown>, events: StreamEvent[]): StreamEvent[] | undefined {
  const delta = isRecord(choice.delta) ? choice.delta : {};
  const reasoning = delta.reasoning_content ?? delta.reasoning;
  if (typeof reasoning === 'string' && reasoning !== '') {
    events.push({ type: 'reasoning-delta', id: ensureChatBlock(state, 'reasoning', events), delta: reasoning });
  }
  for (const text of [delta.content, delta.refusal]) {
    if (typeof text === 'string' && text !== '') {
      events.push({ type: 'text-delta', id: ensureChatBlock(state, 'text', events), delta: text });
    }
  }
  if (Array.isArray(delta.tool_calls)) {
    for (const fragment of delta.tool_calls) {
      if (!isRecord(fragment)) continue;
      const error = decodeChatToolFragment(state, fragment, events);
      if (error) return failChatStream(state, events, error);
    }
  }
  if (typeof choice.finish_reason === 'string') {
    state.finishReason = mapOpenAiFinishReason(choice.finish_reason);
    closeChatBlock(state, events);
  }
  return undefined;
}
