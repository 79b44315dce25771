import type { ChannelAdapter } from './channel-adapter.ts';
import { joinUrl } from './channel-adapter.ts';

/**
 * Cohere (`https://api.cohere.com`): rerank at `/v2/rerank`, which takes the Cohere/Jina body the
 * gateway receives; chat through Cohere's OpenAI compatibility API (`/compatibility/v1`).
 */
export const cohereChannel: ChannelAdapter = {
  kind: 'cohere',
  protocols: ['openai-chat'],
  selectProtocol: () => 'openai-chat',
  buildRequest: ({ channel, apiKey }) => ({
    url: joinUrl(channel.baseUrl, '/compatibility/v1/chat/completions'),
    headers: { authorization: `Bearer ${apiKey}` },
  }),
  media: {
    operations: ['rerank'],
    buildRequest: ({ channel, apiKey }) => ({ url: joinUrl(channel.baseUrl, '/v2/rerank'), headers: { authorization: `Bearer ${apiKey}` } }),
  },
};
