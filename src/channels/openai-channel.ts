import type { ChannelAdapter } from './channel-adapter.ts';
import { joinUrl } from './channel-adapter.ts';

/** OpenAI and every OpenAI-compatible host; the base address includes `/v1` as the SDK takes it. */
export const openaiChannel: ChannelAdapter = {
  kind: 'openai',
  protocols: ['openai-chat', 'openai-responses'],
  selectProtocol(channel, clientProtocol) {
    return clientProtocol === 'openai-responses' && channel.supportsResponses ? 'openai-responses' : 'openai-chat';
  },
  buildRequest({ channel, apiKey, protocol }) {
    const path = protocol === 'openai-responses' ? '/responses' : '/chat/completions';
    return {
      url: joinUrl(channel.baseUrl, path),
      headers: { authorization: `Bearer ${apiKey}` },
    };
  },
};
