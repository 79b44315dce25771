import { openaiEmbeddingsWire } from '../protocols/embeddings/index.ts';
import type { ChannelAdapter } from './channel-adapter.ts';
import { joinUrl } from './channel-adapter.ts';

/**
 * The newest generally available (not preview) data-plane `api-version` for Chat Completions;
 * a channel's `apiVersion` overrides it (a preview version for a preview feature).
 */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

/**
 * Azure OpenAI. `baseUrl` is the resource endpoint (`https://NAME.openai.azure.com`); the
 * upstream model name (after `modelMap`) is the deployment. Chat Completions go to the
 * deployment's path with `api-version`; Responses go to the v1 surface, which names the
 * deployment in the body's `model` (there is no deployment segment there). The key travels in
 * `api-key`, never as a bearer token.
 */
export const azureChannel: ChannelAdapter = {
  kind: 'azure',
  protocols: ['openai-chat', 'openai-responses'],
  selectProtocol(_channel, clientProtocol) {
    return clientProtocol === 'openai-responses' ? 'openai-responses' : 'openai-chat';
  },
  buildRequest({ channel, apiKey, protocol, upstreamModel }) {
    const root = azureRoot(channel.baseUrl);
    const url =
      protocol === 'openai-responses'
        ? joinUrl(root, '/openai/v1/responses')
        : joinUrl(
            root,
            `/openai/deployments/${encodeURIComponent(upstreamModel)}/chat/completions?api-version=${encodeURIComponent(channel.apiVersion ?? DEFAULT_AZURE_API_VERSION)}`,
          );
    return { url, headers: { 'api-key': apiKey } };
  },
  // Embeddings deployments take the OpenAI body at their own path, with api-version.
  embeddings: {
    wire: () => openaiEmbeddingsWire,
    buildRequest: ({ channel, apiKey, upstreamModel }) => ({
      url: joinUrl(
        azureRoot(channel.baseUrl),
        `/openai/deployments/${encodeURIComponent(upstreamModel)}/embeddings?api-version=${encodeURIComponent(channel.apiVersion ?? DEFAULT_AZURE_API_VERSION)}`,
      ),
      headers: { 'api-key': apiKey },
    }),
  },
};

/** Operators paste the endpoint with or without a trailing `/openai`; the paths above add it. */
function azureRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/openai$/i, '');
}
