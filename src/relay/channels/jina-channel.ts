import { openaiEmbeddingsWire } from '../../protocols/embeddings/index.ts';
import type { ChannelAdapter } from './channel-adapter.ts';
import { joinUrl } from './channel-adapter.ts';

/**
 * Jina AI (`https://api.jina.ai`): rerank at `/v1/rerank` and embeddings at `/v1/embeddings`, both
 * in the shapes the gateway receives. Jina has no chat API: a chat request routed here gets Jina's
 * own 404, passed on.
 */
export const jinaChannel: ChannelAdapter = {
  kind: 'jina',
  protocols: ['openai-chat'],
  selectProtocol: () => 'openai-chat',
  buildRequest: ({ channel, apiKey }) => ({ url: joinUrl(channel.baseUrl, '/v1/chat/completions'), headers: { authorization: `Bearer ${apiKey}` } }),
  embeddings: {
    wire: () => openaiEmbeddingsWire,
    buildRequest: ({ channel, apiKey }) => ({ url: joinUrl(channel.baseUrl, '/v1/embeddings'), headers: { authorization: `Bearer ${apiKey}` } }),
  },
  media: {
    operations: ['rerank'],
    buildRequest: ({ channel, apiKey }) => ({ url: joinUrl(channel.baseUrl, '/v1/rerank'), headers: { authorization: `Bearer ${apiKey}` } }),
  },
};
