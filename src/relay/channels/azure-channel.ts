import { openaiEmbeddingsWire } from '../../protocols/embeddings/index.ts';
import { getEntraToken, isEntraSecret } from './auth/azure-entra-token.ts';
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
 * deployment in the body's `model` (there is no deployment segment there). A resource key travels
 * in `api-key`; an Entra ID app (the secret as JSON) gets a bearer token by client credentials.
 */
export const azureChannel: ChannelAdapter = {
  kind: 'azure',
  protocols: ['openai-chat', 'openai-responses'],
  selectProtocol(_channel, clientProtocol) {
    return clientProtocol === 'openai-responses' ? 'openai-responses' : 'openai-chat';
  },
  async buildRequest({ channel, apiKey, protocol, upstreamModel }) {
    const root = azureRoot(channel.baseUrl);
    const url =
      protocol === 'openai-responses'
        ? joinUrl(root, '/openai/v1/responses')
        : joinUrl(
            root,
            `/openai/deployments/${encodeURIComponent(upstreamModel)}/chat/completions?api-version=${encodeURIComponent(channel.apiVersion ?? DEFAULT_AZURE_API_VERSION)}`,
          );
    return { url, headers: await azureAuth(apiKey) };
  },
  // Embeddings deployments take the OpenAI body at their own path, with api-version.
  embeddings: {
    wire: () => openaiEmbeddingsWire,
    buildRequest: async ({ channel, apiKey, upstreamModel }) => ({
      url: joinUrl(
        azureRoot(channel.baseUrl),
        `/openai/deployments/${encodeURIComponent(upstreamModel)}/embeddings?api-version=${encodeURIComponent(channel.apiVersion ?? DEFAULT_AZURE_API_VERSION)}`,
      ),
      headers: await azureAuth(apiKey),
    }),
  },
  // Azure serves images and audio per deployment, like embeddings (the body's `model` is ignored
  // there); it has no moderation or rerank endpoint.
  media: {
    operations: ['images/generations', 'images/edits', 'audio/speech', 'audio/transcriptions', 'audio/translations'],
    buildRequest: async ({ channel, apiKey, upstreamModel, operation }) => ({
      url: joinUrl(
        azureRoot(channel.baseUrl),
        `/openai/deployments/${encodeURIComponent(upstreamModel)}/${operation}?api-version=${encodeURIComponent(channel.apiVersion ?? DEFAULT_AZURE_API_VERSION)}`,
      ),
      headers: await azureAuth(apiKey),
    }),
  },
};

/** A resource key as `api-key`, or an Entra ID app's token as a bearer. */
async function azureAuth(secret: string): Promise<Record<string, string>> {
  return isEntraSecret(secret) ? { authorization: `Bearer ${await getEntraToken(secret)}` } : { 'api-key': secret };
}

/** Operators paste the endpoint with or without a trailing `/openai`; the paths above add it. */
function azureRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/openai$/i, '');
}
