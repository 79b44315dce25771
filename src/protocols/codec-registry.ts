import type { ProtocolCodec, ProtocolId } from './protocol-codec.ts';
import { anthropicMessagesCodec } from './anthropic-messages/index.ts';
import { geminiGenerateContentCodec } from './gemini-generate-content/index.ts';
import { openaiChatCodec } from './openai-chat/index.ts';
import { openaiResponsesCodec } from './openai-responses/index.ts';

const CODECS: Record<ProtocolId, ProtocolCodec> = {
  'openai-chat': openaiChatCodec,
  'openai-responses': openaiResponsesCodec,
  'anthropic-messages': anthropicMessagesCodec,
  'gemini-generate-content': geminiGenerateContentCodec,
};

export function getCodec(protocol: ProtocolId): ProtocolCodec {
  return CODECS[protocol];
}
