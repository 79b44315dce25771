import type { AssistantContentPart } from '../../core/chat-request.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import type { AnthropicResponseBlock } from './anthropic-wire-types.ts';

/**
 * One canonical assistant part as a response block. Reasoning without a signature (another
 * provider's) still reaches the client, as thinking with an empty signature, the way
 * Anthropic-compatible gateways show OpenAI `reasoning_content`.
 */
export function encodeAnthropicContentPart(part: AssistantContentPart, sanitizeId: (id: string) => string): AnthropicResponseBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return part.redactedData !== undefined
        ? { type: 'redacted_thinking', data: part.redactedData }
        : { type: 'thinking', thinking: part.text, signature: part.signature ?? '' };
    case 'tool-call':
      return { type: 'tool_use', id: sanitizeId(part.callId), name: part.name, input: parseToolArguments(part.arguments) };
    default: {
      const unreachable: never = part;
      throw new Error(`unknown assistant part ${JSON.stringify(unreachable)}`);
    }
  }
}
