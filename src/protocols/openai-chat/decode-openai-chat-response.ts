import type { AssistantContentPart } from '../../core/chat-request.ts';
import type { ChatResponse } from '../../core/chat-response.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import { emptyUsage } from '../shared/canonical-usage.ts';
import type { Decoded } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { convertOpenAiUsage } from './convert-openai-usage.ts';
import { mapOpenAiFinishReason } from './map-openai-finish-reason.ts';

function invalid(detail: string): GatewayError {
  return new GatewayError('upstream_invalid_response', `The upstream chat completion could not be read: ${detail}.`);
}

function messageContent(message: Record<string, unknown>): AssistantContentPart[] {
  const parts: AssistantContentPart[] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (typeof reasoning === 'string' && reasoning !== '') parts.push({ type: 'reasoning', text: reasoning });
  const content = message.content;
  if (typeof content === 'string' && content !== '') parts.push({ type: 'text', text: content });
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (isRecord(part) && typeof part.text === 'string') parts.push({ type: 'text', text: part.text });
    }
  }
  if (typeof message.refusal === 'string' && message.refusal !== '') parts.push({ type: 'text', text: message.refusal });
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isRecord(call)) continue;
      const fn = isRecord(call.function) ? call.function : {};
      if (typeof fn.name !== 'string') continue;
      parts.push({
        type: 'tool-call',
        callId: typeof call.id === 'string' ? call.id : '',
        name: fn.name,
        arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
      });
    }
  }
  return parts;
}

/** An upstream's non-streamed chat completion → canonical (first choice only). */
export function decodeOpenAiChatResponse(body: unknown, context: RuntimeContext): Decoded<ChatResponse> {
  if (!isRecord(body)) throw invalid('the body is not a JSON object');
  const choices = body.choices;
  const choice = Array.isArray(choices) ? choices[0] : undefined;
  if (!isRecord(choice) || !isRecord(choice.message)) throw invalid('it has no choices[0].message');
  const content = messageContent(choice.message);
  // Some hosts fill in missing call ids; an empty one would break the client's tool loop.
  for (const part of content) {
    if (part.type === 'tool-call' && part.callId === '') part.callId = context.generateId('call_');
  }
  const warnings =
    Array.isArray(choices) && choices.length > 1
      ? [{ type: 'unsupported' as const, feature: 'n', detail: `only the first of ${choices.length} choices is kept` }]
      : [];
  return {
    value: {
      id: typeof body.id === 'string' ? body.id : context.generateId('chatcmpl-'),
      model: typeof body.model === 'string' ? body.model : '',
      createdAt: typeof body.created === 'number' ? body.created * 1000 : context.now(),
      content,
      finishReason: mapOpenAiFinishReason(choice.finish_reason),
      usage: convertOpenAiUsage(body.usage) ?? emptyUsage(),
    },
    warnings,
  };
}
