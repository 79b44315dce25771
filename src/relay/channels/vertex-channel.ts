import { vertexEmbeddingsWire } from '../../protocols/embeddings/index.ts';
import type { ProtocolId } from '../../protocols/protocol-codec.ts';
import type { Channel } from '../../domain/channel.ts';
import { getServiceAccountToken } from './auth/google-service-account-token.ts';
import type { ChannelAdapter } from './channel-adapter.ts';
import { joinUrl } from './channel-adapter.ts';

/** The body field Anthropic models on Vertex require in place of the `anthropic-version` header. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** Claude models on Vertex speak Anthropic Messages; every other publisher model speaks Gemini. */
export function isVertexAnthropicModel(model: string): boolean {
  return /^(anthropic\/)?claude/i.test(model);
}

/**
 * Google Vertex AI: Gemini models through `generateContent` / `streamGenerateContent`, and
 * Anthropic's models through `rawPredict` / `streamRawPredict` with the Messages body less its
 * `model` (it is in the path) plus `anthropic_version`. Authorised with a bearer token minted
 * from the service-account JSON stored as the channel's secret.
 */
export const vertexChannel: ChannelAdapter = {
  kind: 'vertex',
  protocols: ['gemini-generate-content', 'anthropic-messages'],
  selectProtocol(_channel, _clientProtocol, upstreamModel): ProtocolId {
    return isVertexAnthropicModel(upstreamModel) ? 'anthropic-messages' : 'gemini-generate-content';
  },
  async buildRequest({ channel, apiKey, protocol, upstreamModel, stream, body, forwardedHeaders }) {
    const token = await getServiceAccountToken(apiKey);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    const base = modelsPath(channel);
    if (protocol === 'anthropic-messages') {
      const model = pathSegment(upstreamModel.replace(/^anthropic\//i, ''));
      const beta = forwardedHeaders['anthropic-beta'];
      if (beta !== undefined) headers['anthropic-beta'] = beta;
      return {
        url: joinUrl(channel.baseUrl, `${base}/publishers/anthropic/models/${model}:${stream ? 'streamRawPredict' : 'rawPredict'}`),
        headers,
        body: toVertexAnthropicBody(body),
      };
    }
    const model = pathSegment(upstreamModel.replace(/^google\//i, ''));
    const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    return { url: joinUrl(channel.baseUrl, `${base}/publishers/google/models/${model}:${method}`), headers };
  },
  embeddings: {
    wire: () => vertexEmbeddingsWire,
    async buildRequest({ channel, apiKey, upstreamModel }) {
      const token = await getServiceAccountToken(apiKey);
      const model = pathSegment(upstreamModel.replace(/^google\//i, ''));
      return {
        url: joinUrl(channel.baseUrl, `${modelsPath(channel)}/publishers/google/models/${model}:predict`),
        headers: { authorization: `Bearer ${token}` },
      };
    },
  },
  // Images: Imagen models through `:predict`, Gemini image models through `generateContent`.
  media: {
    operations: ['images/generations'],
    wire: (upstreamModel) => (isImagenModel(upstreamModel) ? 'vertex-imagen' : 'gemini-image'),
    async buildRequest({ channel, apiKey, upstreamModel }) {
      const token = await getServiceAccountToken(apiKey);
      const model = pathSegment(upstreamModel.replace(/^google\//i, ''));
      const method = isImagenModel(upstreamModel) ? 'predict' : 'generateContent';
      return {
        url: joinUrl(channel.baseUrl, `${modelsPath(channel)}/publishers/google/models/${model}:${method}`),
        headers: { authorization: `Bearer ${token}` },
      };
    },
  },
};

/** Imagen models (`imagen-4.0-generate-001`, …) generate through `:predict`. */
export function isImagenModel(model: string): boolean {
  return /^(google\/)?imagen/i.test(model);
}

function modelsPath(channel: Channel): string {
  const project = encodeURIComponent(channel.project ?? '');
  const region = encodeURIComponent(channel.region ?? 'global');
  return `/v1/projects/${project}/locations/${region}`;
}

/** Vertex names the model in the path and rejects it in the body; the version goes in the body. */
function toVertexAnthropicBody(body: string): string {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  delete parsed.model;
  return JSON.stringify({ anthropic_version: VERTEX_ANTHROPIC_VERSION, ...parsed });
}

/** Vertex model versions use `@` (`claude-sonnet-4-5@20250929`), legal in a path segment and written as is. */
function pathSegment(model: string): string {
  return encodeURIComponent(model).replace(/%40/g, '@');
}
