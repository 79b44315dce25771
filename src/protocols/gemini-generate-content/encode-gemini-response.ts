import type { ChatResponse } from '../../core/chat-response.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import { encodeGeminiUsage } from './convert-gemini-usage.ts';
import { encodeGeminiModelPart } from './encode-gemini-model-part.ts';
import type { GeminiGenerateContentResponse, GeminiPart } from './gemini-wire.ts';
import { encodeGeminiFinishReason } from './map-gemini-finish-reason.ts';

/** Canonical → a Gemini GenerateContentResponse with one candidate. */
export function encodeGeminiResponse(response: ChatResponse, _context: RuntimeContext): GeminiGenerateContentResponse {
  const parts = response.content.flatMap((part): GeminiPart[] => {
    const encoded = encodeGeminiModelPart(part);
    return encoded === undefined ? [] : [encoded];
  });
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: encodeGeminiFinishReason(response.finishReason), index: 0 }],
    usageMetadata: encodeGeminiUsage(response.usage),
    modelVersion: response.model,
    responseId: response.id,
  };
}
