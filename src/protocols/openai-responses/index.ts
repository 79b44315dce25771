import { decodeOpenAiError } from '../openai-chat/decode-openai-error.ts';
import { encodeOpenAiError } from '../openai-chat/encode-openai-error.ts';
import type { ProtocolCodec } from '../protocol-codec.ts';
import { takeOpenAiReasoningState } from '../shared/take-reasoning-state.ts';
import { createOpenAiResponsesStreamDecoder } from './create-openai-responses-stream-decoder.ts';
import { createOpenAiResponsesStreamEncoder } from './create-openai-responses-stream-encoder.ts';
import { createOpenAiResponsesUsageTap } from './create-openai-responses-usage-tap.ts';
import { decodeOpenAiResponsesRequest } from './decode-openai-responses-request.ts';
import { decodeOpenAiResponsesResponse } from './decode-openai-responses-response.ts';
import { encodeOpenAiResponsesRequest } from './encode-openai-responses-request.ts';
import { encodeOpenAiResponsesResponse } from './encode-openai-responses-response.ts';
import { openAiResponsesPassthroughLane } from './openai-responses-passthrough-lane.ts';
import { peekBody } from '../shared/peek-body.ts';
import { withFeatures } from '../shared/collect-tool-features.ts';
import { peekCustomTools } from './custom-tool-calls.ts';
import { peekResponsesFeatures } from './peek-responses-features.ts';
import { responsesAffinityHint } from './responses-affinity-hint.ts';

/** OpenAI Responses (`POST /v1/responses`), the only protocol Codex CLI speaks. Errors share chat's shape. */
export { canonicalResponsesInput } from './canonical-responses-input.ts';
// A Responses `usage` object read on its own (the compact endpoint's reply, passed through).
export { convertOpenAiResponsesUsage } from './convert-openai-responses-usage.ts';

export const openaiResponsesCodec: ProtocolCodec = {
  id: 'openai-responses',
  credentials: 'bearer',
  // Responses streams always end with the whole response, usage included.
  peek: (input) =>
    withFeatures({ ...peekBody(input, () => true, 'input', ['max_output_tokens']), ...peekCustomTools(input.body) }, peekResponsesFeatures(input.body)),
  affinityHint: responsesAffinityHint,
  asksForReasoningState: (body) => Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content'),
  passthrough: openAiResponsesPassthroughLane,
  reasoningSlot: 'reasoning-encrypted',
  takeReasoningState: takeOpenAiReasoningState,
  decodeRequest: (input) => decodeOpenAiResponsesRequest(input),
  encodeRequest: (request) => encodeOpenAiResponsesRequest(request),
  decodeResponse: (body, context) => decodeOpenAiResponsesResponse(body, context),
  encodeResponse: (response, context, options) => encodeOpenAiResponsesResponse(response, context, options),
  createStreamDecoder: (context) => createOpenAiResponsesStreamDecoder(context),
  createStreamEncoder: (context, options) => createOpenAiResponsesStreamEncoder(context, options),
  createUsageTap: () => createOpenAiResponsesUsageTap(),
  encodeError: (error, requestId) => encodeOpenAiError(error, requestId),
  decodeError: (status, body) => decodeOpenAiError(status, body),
};
