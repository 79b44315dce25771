import type { ChatResponse } from '../../core/chat-response.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { AnthropicMessage } from './anthropic-wire-types.ts';
import { encodeAnthropicUsage } from './convert-anthropic-usage.ts';
import { encodeAnthropicContentPart } from './encode-anthropic-content.ts';
import { encodeAnthropicStopReason } from './map-anthropic-stop-reason.ts';
import { createToolIdSanitizer } from './sanitize-anthropic-tool-id.ts';

/** Anthropic clients expect `msg_` ids; a foreign upstream's id is replaced, not prefixed. */
export function anthropicMessageId(id: string, context: RuntimeContext): string {
  return id.startsWith('msg_') ? id : context.generateId('msg_');
}

/** Canonical response → an Anthropic `message` object. */
export function encodeAnthropicResponse(response: ChatResponse, context: RuntimeContext): AnthropicMessage {
  const sanitizeId = createToolIdSanitizer(context);
  const content = response.content.map((part) => encodeAnthropicContentPart(part, sanitizeId));
  const hasToolCalls = response.content.some((part) => part.type === 'tool-call');
  const { stopReason, stopSequence } = encodeAnthropicStopReason(response.finishReason, hasToolCalls);
  return {
    id: anthropicMessageId(response.id, context),
    type: 'message',
    role: 'assistant',
    model: response.model,
    content,
    stop_reason: stopReason,
    stop_sequence: stopSequence,
    usage: encodeAnthropicUsage(response.usage),
  };
}
