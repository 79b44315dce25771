import { isRecord } from '../shared/is-record.ts';

/** One Gemini part, checked and classified. Input must already have camelCase keys. */
export type GeminiPartView =
  | { kind: 'text'; text: string; thought: boolean; thoughtSignature?: string }
  | { kind: 'inline-data'; mimeType: string; data: string }
  | { kind: 'file-data'; fileUri: string; mimeType?: string }
  | { kind: 'function-call'; id?: string; name: string; args: Record<string, unknown>; thoughtSignature?: string }
  | { kind: 'function-response'; id?: string; name: string; response: Record<string, unknown>; parts: unknown[] }
  /** A known Gemini part this gateway cannot translate (code execution, video metadata, …). */
  | { kind: 'unsupported'; field: string }
  /** A known field with a broken value; `field` is the dotted path below the part. */
  | { kind: 'invalid'; field: string; reason: string }
  /** No field we know. */
  | { kind: 'unknown' };

const UNSUPPORTED_FIELDS = ['executableCode', 'codeExecutionResult', 'toolCall', 'toolResponse'];

export function readGeminiPart(part: unknown): GeminiPartView {
  if (!isRecord(part)) return { kind: 'invalid', field: '', reason: 'must be an object' };
  const signature = typeof part.thoughtSignature === 'string' ? part.thoughtSignature : undefined;
  if (part.functionCall !== undefined) {
    const call = part.functionCall;
    if (!isRecord(call)) return { kind: 'invalid', field: 'functionCall', reason: 'must be an object' };
    if (typeof call.name !== 'string' || call.name === '') {
      return { kind: 'invalid', field: 'functionCall.name', reason: 'must be a non-empty string' };
    }
    if (call.args !== undefined && call.args !== null && !isRecord(call.args)) {
      return { kind: 'invalid', field: 'functionCall.args', reason: 'must be an object' };
    }
    return {
      kind: 'function-call',
      ...(typeof call.id === 'string' && call.id !== '' ? { id: call.id } : {}),
      name: call.name,
      args: isRecord(call.args) ? call.args : {},
      ...(signature === undefined ? {} : { thoughtSignature: signature }),
    };
  }
  if (part.functionResponse !== undefined) {
    const result = part.functionResponse;
    if (!isRecord(result)) return { kind: 'invalid', field: 'functionResponse', reason: 'must be an object' };
    if (typeof result.name !== 'string' || result.name === '') {
      return { kind: 'invalid', field: 'functionResponse.name', reason: 'must be a non-empty string' };
    }
    if (result.response !== undefined && result.response !== null && !isRecord(result.response)) {
      return { kind: 'invalid', field: 'functionResponse.response', reason: 'must be an object' };
    }
    return {
      kind: 'function-response',
      ...(typeof result.id === 'string' && result.id !== '' ? { id: result.id } : {}),
      name: result.name,
      response: isRecord(result.response) ? result.response : {},
      parts: Array.isArray(result.parts) ? result.parts : [],
    };
  }
  if (part.text !== undefined) {
    if (typeof part.text !== 'string') return { kind: 'invalid', field: 'text', reason: 'must be a string' };
    return {
      kind: 'text',
      text: part.text,
      thought: part.thought === true,
      ...(signature === undefined ? {} : { thoughtSignature: signature }),
    };
  }
  if (part.inlineData !== undefined) {
    const inline = part.inlineData;
    if (!isRecord(inline)) return { kind: 'invalid', field: 'inlineData', reason: 'must be an object' };
    if (typeof inline.mimeType !== 'string' || inline.mimeType === '') {
      return { kind: 'invalid', field: 'inlineData.mimeType', reason: 'must be a non-empty string' };
    }
    if (typeof inline.data !== 'string') return { kind: 'invalid', field: 'inlineData.data', reason: 'must be a base64 string' };
    return { kind: 'inline-data', mimeType: inline.mimeType, data: inline.data };
  }
  if (part.fileData !== undefined) {
    const file = part.fileData;
    if (!isRecord(file)) return { kind: 'invalid', field: 'fileData', reason: 'must be an object' };
    if (typeof file.fileUri !== 'string' || file.fileUri === '') {
      return { kind: 'invalid', field: 'fileData.fileUri', reason: 'must be a non-empty string' };
    }
    return {
      kind: 'file-data',
      fileUri: file.fileUri,
      ...(typeof file.mimeType === 'string' && file.mimeType !== '' ? { mimeType: file.mimeType } : {}),
    };
  }
  for (const field of UNSUPPORTED_FIELDS) {
    if (part[field] !== undefined) return { kind: 'unsupported', field };
  }
  return { kind: 'unknown' };
}
