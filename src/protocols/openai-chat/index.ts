import type { ProtocolCodec } from '../protocol-codec.ts';
import { createOpenAiChatStreamDecoder } from './create-openai-chat-stream-decoder.ts';
import { createOpenAiChatStreamEncoder } from './create-openai-chat-stream-encoder.ts';
import { createOpenAiChatUsageTap } from './create-openai-chat-usage-tap.ts';
import { decodeOpenAiChatRequest } from './decode-openai-chat-request.ts';
import { decodeOpenAiChatResponse } from './decode-openai-chat-response.ts';
import { decodeOpenAiError } from './decode-openai-error.ts';
import { encodeOpenAiChatRequest } from './encode-openai-chat-request.ts';
import { encodeOpenAiChatResponse } from './encode-openai-chat-response.ts';
import { encodeOpenAiError } from './encode-openai-error.ts';
import { openAiChatPassthroughLane } from './openai-chat-passthrough-lane.ts';
import { peekOpenAiChatRequest } from './peek-openai-chat-request.ts';
import { readOpenAiAffinityKeys } from './read-openai-affinity-keys.ts';

export { readOpenAiChatIncludeUsage } from './peek-openai-chat-request.ts';

/** OpenAI Chat Completions (`POST /v1/chat/completions`). */
export const openaiChatCodec: ProtocolCodec = {
  id: 'openai-chat',
  credentials: 'bearer',
  peek: peekOpenAiChatRequest,
  affinityHint: (input) => {
    const conversationKeys = readOpenAiAffinityKeys(input.body);
    return conversationKeys.length === 0 ? undefined : { conversationKeys };
  },
  passthrough: openAiChatPassthroughLane,
  reasoningSlot: 'reasoning-encrypted',
  decodeRequest: (input) => decodeOpenAiChatRequest(input),
  encodeRequest: (request) => encodeOpenAiChatRequest(request),
  decodeResponse: (body, context) => decodeOpenAiChatResponse(body, context),
  encodeResponse: (response, context, options) => encodeOpenAiChatResponse(response, context, options),
  createStreamDecoder: (context) => createOpenAiChatStreamDecoder(context),
  createStreamEncoder: (context, options) => createOpenAiChatStreamEncoder(context, options),
  createUsageTap: () => createOpenAiChatUsageTap(),
  encodeError: (error, requestId) => encodeOpenAiError(error, requestId),
  decodeError: (status, body) => decodeOpenAiError(status, body),
};
