import type { ReasoningPart } from '../../core/chat-request.ts';
import { isRecord } from '../shared/is-record.ts';

/**
 * `reasoning_details`: the array OpenRouter and other gateways use to carry signed or encrypted
 * reasoning on Chat Completions, which has no slot of its own. An opaque value rides as a
 * `reasoning.encrypted` entry; clients keep the array on the assistant message and send it back.
 */
export const REASONING_DETAILS_FORMAT = 'switchyard-v1';

export function encodeReasoningDetail(part: ReasoningPart, index: number): Record<string, unknown> | undefined {
  const data = part.providerMetadata?.openai?.encryptedContent ?? part.signature ?? part.redactedData;
  if (typeof data !== 'string' || data === '') return undefined;
  return { type: 'reasoning.encrypted', data, id: null, format: REASONING_DETAILS_FORMAT, index };
}

/** Reads the entries back into reasoning parts: encrypted data as opaque state, signed text as text with its signature. */
export function decodeReasoningDetails(details: unknown): ReasoningPart[] {
  if (!Array.isArray(details)) return [];
  const parts: ReasoningPart[] = [];
  for (const detail of details) {
    if (!isRecord(detail)) continue;
    if (detail.type === 'reasoning.encrypted' && typeof detail.data === 'string' && detail.data !== '') {
      parts.push({ type: 'reasoning', text: '', providerMetadata: { openai: { encryptedContent: detail.data } } });
    } else if (detail.type === 'reasoning.text' && typeof detail.signature === 'string' && detail.signature !== '') {
      parts.push({ type: 'reasoning', text: typeof detail.text === 'string' ? detail.text : '', signature: detail.signature });
    }
  }
  return parts;
}
