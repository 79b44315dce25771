import { CLIENT_PROTOCOL_IDS, type CredentialStyle, type ProtocolCodec, type ProtocolId, type UpstreamProtocolId } from './protocol-codec.ts';
import { anthropicMessagesCodec } from './anthropic-messages/index.ts';
import { bedrockConverseCodec } from './bedrock-converse/index.ts';
import { geminiGenerateContentCodec } from './gemini-generate-content/index.ts';
import { openaiChatCodec } from './openai-chat/index.ts';
import { openaiResponsesCodec } from './openai-responses/index.ts';
import { assertJsonDepth } from './shared/assert-json-depth.ts';

/** Every client body passes one depth check before any (recursive) decoder sees it. */
function withDepthGuard(codec: ProtocolCodec): ProtocolCodec {
  return {
    ...codec,
    decodeRequest(input, context) {
      assertJsonDepth(input.body);
      return codec.decodeRequest(input, context);
    },
  };
}

const CODECS: Record<UpstreamProtocolId, ProtocolCodec> = {
  'openai-chat': withDepthGuard(openaiChatCodec),
  'openai-responses': withDepthGuard(openaiResponsesCodec),
  'anthropic-messages': withDepthGuard(anthropicMessagesCodec),
  'gemini-generate-content': withDepthGuard(geminiGenerateContentCodec),
  'bedrock-converse': bedrockConverseCodec,
};

export function getCodec(protocol: UpstreamProtocolId): ProtocolCodec {
  return CODECS[protocol];
}

/** Where a client of `protocol` carries its key (the codec's `credentials`; Bearer, the OpenAI convention, for none). */
export function credentialStyleOf(protocol: UpstreamProtocolId): CredentialStyle {
  return CODECS[protocol].credentials ?? 'bearer';
}

const CLIENT_PROTOCOLS: ReadonlySet<UpstreamProtocolId> = new Set<ProtocolId>(CLIENT_PROTOCOL_IDS);

/** Whether a client surface speaks this wire format (upstream-only formats such as Converse do not). */
export function isClientProtocol(protocol: UpstreamProtocolId): protocol is ProtocolId {
  return CLIENT_PROTOCOLS.has(protocol);
}
