import type { AssistantContentPart } from '../../core/chat-request.ts';
import type { ChatResponse } from '../../core/chat-response.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { Warning } from '../../core/warning.ts';
import type { Decoded } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeAnthropicUsage } from './convert-anthropic-usage.ts';
import { decodeAnthropicStopReason } from './map-anthropic-stop-reason.ts';

function invalidResponse(detail: string): GatewayError {
  return new GatewayError('upstream_invalid_response', `The upstream returned an Anthropic message that cannot be read: ${detail}.`);
}

function decodeBlock(block: unknown, index: number, warnings: Warning[]): AssistantContentPart | undefined {
  if (!isRecord(block)) throw invalidResponse(`content.${index} is not an object`);
  switch (block.type) {
    case 'text':
      return { type: 'text', text: typeof block.text === 'string' ? block.text : '' };
    case 'thinking':
      return typeof block.signature === 'string' && block.signature !== ''
        ? { type: 'reasoning', text: typeof block.thinking === 'string' ? block.thinking : '', signature: block.signature }
        : { type: 'reasoning', text: typeof block.thinking === 'string' ? block.thinking : '' };
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redactedData: typeof block.data === 'string' ? block.data : '' };
    case 'tool_use':
      if (typeof block.id !== 'string' || typeof block.name !== 'string') {
        throw invalidResponse(`content.${index} is a tool_use block without a string id and name`);
      }
      return {
        type: 'tool-call',
        callId: block.id,
        name: block.name,
        arguments: JSON.stringify(block.input === undefined || block.input === null ? {} : block.input),
      };
    default:
      warnings.push({
        type: 'unsupported',
        feature: `content-block:${String(block.type)}`,
        detail: `The upstream's ${String(block.type)} block (content.${index}) cannot be translated and was dropped.`,
      });
      return undefined;
  }
}

/** An upstream Anthropic message → canonical response. */
export function decodeAnthropicResponse(body: unknown, context: RuntimeContext): Decoded<ChatResponse> {
  if (!isRecord(body)) throw invalidResponse('the body is not a JSON object');
  if (!Array.isArray(body.content)) throw invalidResponse('"content" is not an array');
  const warnings: Warning[] = [];
  const content: AssistantContentPart[] = [];
  body.content.forEach((block, index) => {
    const part = decodeBlock(block, index, warnings);
    if (part) content.push(part);
  });
  return {
    value: {
      id: typeof body.id === 'string' ? body.id : context.generateId('msg_'),
      model: typeof body.model === 'string' ? body.model : '',
      createdAt: context.now(),
      content,
      finishReason: decodeAnthropicStopReason(body.stop_reason, body.stop_sequence),
      usage: decodeAnthropicUsage(body.usage),
    },
    warnings,
  };
}
