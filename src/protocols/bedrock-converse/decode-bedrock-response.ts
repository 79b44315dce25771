import type { AssistantContentPart } from '../../core/chat-request.ts';
import type { ChatResponse } from '../../core/chat-response.ts';
import type { FinishReason } from '../../core/finish-reason.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { Usage } from '../../core/usage.ts';
import { keepUpstreamUsage } from '../shared/canonical-usage.ts';
import type { Warning } from '../../core/warning.ts';
import type { Decoded } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';

function invalidResponse(detail: string): GatewayError {
  return new GatewayError('upstream_invalid_response', `The upstream returned a Bedrock Converse reply that cannot be read: ${detail}.`);
}

/** Converse's `inputTokens` excludes cache reads and writes; the canonical count includes them. */
export function decodeBedrockUsage(value: unknown): Usage {
  if (!isRecord(value)) return { inputTokens: 0, outputTokens: 0 };
  const number = (field: string): number | undefined => (typeof value[field] === 'number' ? (value[field] as number) : undefined);
  const cacheRead = number('cacheReadInputTokens');
  const cacheWrite = number('cacheWriteInputTokens');
  const usage: Usage = {
    inputTokens: (number('inputTokens') ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: number('outputTokens') ?? 0,
  };
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  return keepUpstreamUsage(usage, value);
}

/**
 * `stopReason` → canonical. `additionalModelResponseFields` is where Claude's matched stop
 * sequence comes back (the request asks for `/stop_sequence`).
 */
export function decodeBedrockStopReason(value: unknown, additionalFields?: unknown): FinishReason {
  const raw = typeof value === 'string' ? value : undefined;
  const withRaw = (unified: FinishReason['unified']): FinishReason => (raw === undefined ? { unified } : { unified, raw });
  switch (raw) {
    case 'end_turn':
      return withRaw('stop');
    case 'stop_sequence': {
      const stopSequence = isRecord(additionalFields) ? additionalFields.stop_sequence : undefined;
      return typeof stopSequence === 'string' ? { unified: 'stop', raw, stopSequence } : withRaw('stop');
    }
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return withRaw('length');
    case 'tool_use':
      return withRaw('tool-calls');
    case 'guardrail_intervened':
    case 'content_filtered':
      return withRaw('content-filter');
    default:
      return withRaw('other');
  }
}

function decodeBlock(block: unknown, index: number, warnings: Warning[]): AssistantContentPart | undefined {
  if (!isRecord(block)) throw invalidResponse(`output.message.content.${index} is not an object`);
  if (typeof block.text === 'string') return { type: 'text', text: block.text };
  if (isRecord(block.toolUse)) {
    const { toolUseId, name, input } = block.toolUse;
    if (typeof toolUseId !== 'string' || typeof name !== 'string') throw invalidResponse(`content.${index}.toolUse lacks toolUseId or name`);
    return { type: 'tool-call', callId: toolUseId, name, arguments: JSON.stringify(input ?? {}) };
  }
  if (isRecord(block.reasoningContent)) {
    const reasoning = block.reasoningContent;
    if (typeof reasoning.redactedContent === 'string') return { type: 'reasoning', text: '', redactedData: reasoning.redactedContent };
    const text = isRecord(reasoning.reasoningText) ? reasoning.reasoningText : {};
    const part: AssistantContentPart = { type: 'reasoning', text: typeof text.text === 'string' ? text.text : '' };
    if (typeof text.signature === 'string' && text.signature !== '') part.signature = text.signature;
    return part;
  }
  warnings.push({
    type: 'unsupported',
    feature: `content-block:${Object.keys(block)[0] ?? 'empty'}`,
    detail: `Bedrock content.${index} has no canonical form and was dropped.`,
  });
  return undefined;
}

/** A Converse reply → canonical response. Converse names no id and no model; the id is made up. */
export function decodeBedrockResponse(body: unknown, context: RuntimeContext): Decoded<ChatResponse> {
  if (!isRecord(body)) throw invalidResponse('the body is not a JSON object');
  const output = isRecord(body.output) ? body.output : undefined;
  const message = output && isRecord(output.message) ? output.message : undefined;
  if (!message || !Array.isArray(message.content)) throw invalidResponse('"output.message.content" is not an array');
  const warnings: Warning[] = [];
  const content: AssistantContentPart[] = [];
  message.content.forEach((block, index) => {
    const part = decodeBlock(block, index, warnings);
    if (part) content.push(part);
  });
  return {
    value: {
      id: context.generateId('msg_'),
      model: '',
      createdAt: context.now(),
      content,
      finishReason: decodeBedrockStopReason(body.stopReason, body.additionalModelResponseFields),
      usage: decodeBedrockUsage(body.usage),
    },
    warnings,
  };
}
