import type { ChatResponse } from '../../core/chat-response.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEncoderOptions } from '../protocol-codec.ts';
import { customToolInput } from '../openai-responses/custom-tool-calls.ts';
import { toOpenAiUsage } from './convert-openai-usage.ts';
import { encodeReasoningDetail } from './openai-chat-reasoning-details.ts';
import { ensureIdPrefix } from './ensure-id-prefix.ts';
import { toOpenAiFinishReason } from './map-openai-finish-reason.ts';

/**
 * A canonical reply → the Chat Completions object a client expects. A call to one of the
 * client's custom (freeform) tools goes back as a custom tool call with its raw input.
 */
export function encodeOpenAiChatResponse(response: ChatResponse, context: RuntimeContext, options: StreamEncoderOptions = {}): Record<string, unknown> {
  const customTools = new Set(options.customTools);
  let text = '';
  let reasoning = '';
  const calls: Record<string, unknown>[] = [];
  const details: Record<string, unknown>[] = [];
  for (const part of response.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') {
      reasoning += part.text;
      const detail = encodeReasoningDetail(part, details.length);
      if (detail) details.push(detail);
    } else if (customTools.has(part.name)) {
      calls.push({ id: part.callId, type: 'custom', custom: { name: part.name, input: customToolInput(part.arguments) } });
    } else calls.push({ id: part.callId, type: 'function', function: { name: part.name, arguments: part.arguments } });
  }
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    refusal: null,
  };
  if (reasoning !== '') message.reasoning_content = reasoning;
  if (details.length > 0) message.reasoning_details = details;
  if (calls.length > 0) message.tool_calls = calls;
  return {
    id: ensureIdPrefix(response.id, 'chatcmpl-', context),
    object: 'chat.completion',
    created: Math.floor(response.createdAt / 1000),
    model: response.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: toOpenAiFinishReason(response.finishReason.unified) }],
    usage: toOpenAiUsage(response.usage),
  };
}
