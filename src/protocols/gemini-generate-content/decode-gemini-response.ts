import type { AssistantContentPart } from '../../core/chat-request.ts';
import type { ChatResponse } from '../../core/chat-response.ts';
import type { FinishReason } from '../../core/finish-reason.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import { emptyUsage } from '../shared/canonical-usage.ts';
import type { Warning } from '../../core/warning.ts';
import type { Decoded } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeGeminiUsage } from './convert-gemini-usage.ts';
import { decodeGeminiError } from './decode-gemini-error.ts';
import { decodeGeminiModelPart } from './decode-gemini-model-part.ts';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.ts';
import { normalizeGeminiKeys } from './normalize-gemini-keys.ts';
import { readGeminiPart } from './read-gemini-part.ts';
import { uniqueWarnings } from './unique-warnings.ts';

/**
 * A Gemini GenerateContentResponse → canonical. Only the first candidate is read (the gateway
 * asks for one). A prompt the safety filter blocked arrives as HTTP 200 with
 * `promptFeedback.blockReason` and no candidates: that is a content-filter finish, not an error.
 */
export function decodeGeminiResponse(body: unknown, context: RuntimeContext): Decoded<ChatResponse> {
  const response = normalizeGeminiKeys(body);
  if (!isRecord(response)) {
    throw new GatewayError('upstream_invalid_response', 'The Gemini upstream replied with something other than a JSON object.');
  }
  if (isRecord(response.error)) {
    const { message, type } = decodeGeminiError(502, response);
    throw new GatewayError('upstream_error', `The Gemini upstream reported an error: ${message}`, type === undefined ? {} : { upstreamType: type });
  }
  const warnings: Warning[] = [];
  const candidate = Array.isArray(response.candidates) && isRecord(response.candidates[0]) ? response.candidates[0] : undefined;
  const content: AssistantContentPart[] = [];
  const parts = candidate && isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
  for (const part of parts) {
    const view = readGeminiPart(part);
    const decoded = decodeGeminiModelPart(view, () => context.generateId('call_'));
    if (decoded) content.push(decoded);
    else if (view.kind === 'unsupported') warnings.push({ type: 'unsupported', feature: `parts.${view.field}` });
    else if (view.kind === 'inline-data' || view.kind === 'file-data') warnings.push({ type: 'unsupported', feature: 'model media parts' });
  }
  const hasFunctionCall = content.some((part) => part.type === 'tool-call');
  return {
    value: {
      id: typeof response.responseId === 'string' && response.responseId !== '' ? response.responseId : context.generateId('resp_'),
      model: typeof response.modelVersion === 'string' ? response.modelVersion : '',
      createdAt: readCreateTime(response.createTime) ?? context.now(),
      content,
      finishReason: readFinishReason(candidate, response.promptFeedback, hasFunctionCall),
      usage: decodeGeminiUsage(response.usageMetadata) ?? emptyUsage(),
    },
    warnings: uniqueWarnings(warnings),
  };
}

function readFinishReason(candidate: Record<string, unknown> | undefined, feedback: unknown, hasFunctionCall: boolean): FinishReason {
  if (candidate && typeof candidate.finishReason === 'string') return mapGeminiFinishReason(candidate.finishReason, hasFunctionCall);
  if (isRecord(feedback) && typeof feedback.blockReason === 'string') {
    return { unified: 'content-filter', raw: feedback.blockReason };
  }
  return hasFunctionCall ? { unified: 'tool-calls' } : { unified: 'other' };
}

/** Vertex-style responses carry `createTime` (RFC 3339); the Developer API does not. */
function readCreateTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
