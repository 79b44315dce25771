import type { ChatRequest } from '../../core/chat-request.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { ClientRequestInput, Decoded } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeGeminiRequest } from './decode-gemini-request.ts';
import { normalizeGeminiKeys } from './normalize-gemini-keys.ts';

/**
 * `:countTokens` takes either `{contents}` (what the genai SDK sends) or a whole request under
 * `generateContentRequest`; both decode to a canonical request the server can estimate.
 */
export function decodeGeminiCountTokensRequest(input: ClientRequestInput, context: RuntimeContext): Decoded<ChatRequest> {
  const body = normalizeGeminiKeys(input.body);
  const inner = isRecord(body) && isRecord(body.generateContentRequest) ? body.generateContentRequest : body;
  return decodeGeminiRequest({ ...input, body: inner, pathStream: false }, context);
}

/** The `:countTokens` reply. */
export function encodeGeminiCountTokensResponse(totalTokens: number): { totalTokens: number } {
  return { totalTokens };
}
