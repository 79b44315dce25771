import type { ProtocolCodec } from '../protocol-codec.ts';
import { takeClaudeReasoningState } from '../shared/take-reasoning-state.ts';
import { enforceAnthropicThinking } from '../shared/enforce-anthropic-thinking.ts';
import { createAnthropicStreamDecoder } from './create-anthropic-stream-decoder.ts';
import { createAnthropicStreamEncoder } from './create-anthropic-stream-encoder.ts';
import { createAnthropicUsageTap } from './create-anthropic-usage-tap.ts';
import { decodeAnthropicError } from './decode-anthropic-error.ts';
import { decodeAnthropicRequest } from './decode-anthropic-request.ts';
import { decodeAnthropicResponse } from './decode-anthropic-response.ts';
import { encodeAnthropicError } from './encode-anthropic-error.ts';
import { encodeAnthropicRequest } from './encode-anthropic-request.ts';
import { encodeAnthropicResponse } from './encode-anthropic-response.ts';
import { anthropicPassthroughLane } from './anthropic-passthrough-lane.ts';
import { peekAnthropicFeatures } from './peek-anthropic-features.ts';
import { peekBody } from '../shared/peek-body.ts';
import { withFeatures } from '../shared/collect-tool-features.ts';
import { anthropicAffinityHint } from './anthropic-affinity-hint.ts';

/** The Anthropic Messages wire format (`POST /v1/messages`), both directions. */
export const anthropicMessagesCodec: ProtocolCodec = {
  id: 'anthropic-messages',
  credentials: 'anthropic',
  // Anthropic streams always report usage (message_start, message_delta).
  peek: (input) =>
    withFeatures(
      peekBody(input, () => true, 'messages', ['max_tokens']),
      peekAnthropicFeatures(input.body),
    ),
  affinityHint: anthropicAffinityHint,
  passthrough: anthropicPassthroughLane,
  reasoningSlot: 'reasoning-signature',
  takeReasoningState: takeClaudeReasoningState,
  decodeRequest: (input) => decodeAnthropicRequest(input),
  encodeRequest: encodeAnthropicRequest,
  enforceOnEncoded: enforceAnthropicThinking,
  decodeResponse: decodeAnthropicResponse,
  encodeResponse: encodeAnthropicResponse,
  createStreamDecoder: createAnthropicStreamDecoder,
  createStreamEncoder: (context) => createAnthropicStreamEncoder(context),
  createUsageTap: createAnthropicUsageTap,
  encodeError: encodeAnthropicError,
  decodeError: decodeAnthropicError,
};
