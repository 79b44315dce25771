import { openaiEmbeddingsWire } from '../../protocols/embeddings/index.ts';
import type { ChannelAdapter } from './channel-adapter.ts';
import { joinUrl, OPENAI_MEDIA_OPERATIONS } from './channel-adapter.ts';

/** OpenAI and every OpenAI-compatible host; the base address includes `/v1` as the SDK takes it. */
export const openaiChannel: ChannelAdapter = {
  kind: 'openai',
  protocols: ['openai-chat', 'openai-responses'],
  // A Responses-capable channel serves every client but Chat's own through Responses: reasoning
  // models keep their reasoning chain only there (encrypted, handed back next turn); Chat
  // clients keep their same-protocol lane.
  selectProtocol(channel, clientProtocol) {
    return clientProtocol !== 'openai-chat' && channel.supportsResponses ? 'openai-responses' : 'openai-chat';
  },
  buildRequest({ channel, apiKey, protocol }) {
    const path = protocol === 'openai-responses' ? '/responses' : '/chat/completions';
    return {
      url: joinUrl(channel.baseUrl, path),
      headers: { authorization: `Bearer ${apiKey}` },
    };
  },
  embeddings: {
    wire: () => openaiEmbeddingsWire,
    buildRequest: ({ channel, apiKey }) => ({ url: joinUrl(channel.baseUrl, '/embeddings'), headers: { authorization: `Bearer ${apiKey}` } }),
  },
  media: {
    // `responses/compact` only where the channel speaks Responses (generation/pass-compaction-through.ts checks).
    operations: [...OPENAI_MEDIA_OPERATIONS, 'responses/compact'],
    buildRequest: ({ channel, apiKey, operation }) => ({ url: joinUrl(channel.baseUrl, `/${operation}`), headers: { authorization: `Bearer ${apiKey}` } }),
  },
};
