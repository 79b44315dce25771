import type { ProtocolCodec } from '../protocol-codec.ts';
import { takeGeminiReasoningState } from '../shared/take-reasoning-state.ts';
import { createGeminiStreamDecoder } from './create-gemini-stream-decoder.ts';
import { createGeminiStreamEncoder } from './create-gemini-stream-encoder.ts';
import { createGeminiUsageTap } from './create-gemini-usage-tap.ts';
import { decodeGeminiError } from './decode-gemini-error.ts';
import { decodeGeminiRequest } from './decode-gemini-request.ts';
import { decodeGeminiResponse } from './decode-gemini-response.ts';
import { encodeGeminiError } from './encode-gemini-error.ts';
import { encodeGeminiRequest } from './encode-gemini-request.ts';
import { encodeGeminiResponse } from './encode-gemini-response.ts';
import { geminiPassthroughLane, peekGeminiRequest } from './gemini-passthrough-lane.ts';
import { geminiAffinityHint } from './gemini-affinity-hint.ts';

/** The Gemini v1beta generateContent wire format (also served under `/v1` and `/v1alpha`). */
export const geminiGenerateContentCodec: ProtocolCodec = {
  id: 'gemini-generate-content',
  credentials: 'gemini',
  peek: peekGeminiRequest,
  affinityHint: geminiAffinityHint,
  passthrough: geminiPassthroughLane,
  reasoningSlot: 'gemini-signature',
  takeReasoningState: takeGeminiReasoningState,
  decodeRequest: decodeGeminiRequest,
  encodeRequest: encodeGeminiRequest,
  decodeResponse: decodeGeminiResponse,
  encodeResponse: encodeGeminiResponse,
  createStreamDecoder: createGeminiStreamDecoder,
  createStreamEncoder: createGeminiStreamEncoder,
  createUsageTap: createGeminiUsageTap,
  encodeError: encodeGeminiError,
  decodeError: decodeGeminiError,
};

export { encodeGeminiModel, encodeGeminiModelList } from './encode-gemini-model-list.ts';
export type { GeminiModel, GeminiModelInfo, GeminiModelList } from './encode-gemini-model-list.ts';
export { decodeGeminiCountTokensRequest, encodeGeminiCountTokensResponse } from './decode-gemini-count-tokens-request.ts';
export { stripGeminiModelPrefix } from './decode-gemini-request.ts';
export {
  asksForImages,
  decodeGeminiImageReply,
  decodeGeminiImageRequest,
  encodeGeminiImageRequest,
  encodeGeminiImageResponse,
  GEMINI_IMAGE_ASPECT_RATIOS,
  type GeminiImageRequest,
} from './gemini-image.ts';
