import type { ProtocolId } from '../protocols/protocol-codec.ts';
import type { SseMessage } from '../sse/sse-message.ts';

/** How a passthrough stream of each protocol ends: properly, with an upstream error, or not yet. */
export type StreamMark = 'end' | 'error' | undefined;

/**
 * Recognises the last event of a same-protocol stream by cheap string checks (no JSON parse),
 * so the passthrough lane can tell a complete stream from one the upstream cut short.
 */
export function markStreamEvent(protocol: ProtocolId, message: SseMessage): StreamMark {
  switch (protocol) {
    case 'openai-chat':
      if (message.data === '[DONE]') return 'end';
      return message.data.startsWith('{"error"') ? 'error' : undefined;
    case 'anthropic-messages':
      if (message.event === 'message_stop') return 'end';
      return message.event === 'error' ? 'error' : undefined;
    case 'openai-responses':
      if (message.event === 'response.completed' || message.event === 'response.incomplete') return 'end';
      return message.event === 'response.failed' || message.event === 'error' ? 'error' : undefined;
    case 'gemini-generate-content':
      if (message.data.startsWith('{"error"')) return 'error';
      return message.data.includes('"finishReason"') ? 'end' : undefined;
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

/**
 * A structural check of one event's payload: JSON objects start with `{` and end with `}`.
 * Catches a truncated event without paying for a parse on every chunk of a healthy stream.
 */
export function looksWellFormed(data: string): boolean {
  if (data === '[DONE]') return true;
  const first = data.charCodeAt(0);
  let end = data.length - 1;
  while (end > 0 && (data.charCodeAt(end) === 32 || data.charCodeAt(end) === 10 || data.charCodeAt(end) === 13)) end -= 1;
  return first === 123 /* { */ && data.charCodeAt(end) === 125 /* } */;
}
