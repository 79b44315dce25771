import type { ChannelAdapter } from './channel-adapter.ts';
import { joinUrl } from './channel-adapter.ts';

/** The version every translated request is written for; same-protocol clients send their own. */
const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

export const anthropicChannel: ChannelAdapter = {
  kind: 'anthropic',
  protocols: ['anthropic-messages'],
  selectProtocol: () => 'anthropic-messages',
  buildRequest({ channel, apiKey, forwardedHeaders }) {
    const headers: Record<string, string> = {
      'x-api-key': apiKey,
      'anthropic-version': forwardedHeaders['anthropic-version'] ?? DEFAULT_ANTHROPIC_VERSION,
    };
    const beta = forwardedHeaders['anthropic-beta'];
    if (beta !== undefined) headers['anthropic-beta'] = beta;
    return { url: joinUrl(channel.baseUrl, '/v1/messages'), headers };
  },
};
