import { geminiEmbeddingsWire } from '../../protocols/embeddings/index.ts';
import type { ChannelAdapter } from './channel-adapter.ts';
import { joinUrl } from './channel-adapter.ts';

/** Google's Generative Language API (AI Studio keys); the base address is the root. */
export const geminiChannel: ChannelAdapter = {
  kind: 'gemini',
  protocols: ['gemini-generate-content'],
  selectProtocol: () => 'gemini-generate-content',
  buildRequest({ channel, apiKey, upstreamModel, stream }) {
    const model = encodeURIComponent(upstreamModel);
    const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    return {
      url: joinUrl(channel.baseUrl, `/v1beta/models/${model}:${method}`),
      headers: { 'x-goog-api-key': apiKey },
    };
  },
  embeddings: {
    wire: () => geminiEmbeddingsWire,
    buildRequest: ({ channel, apiKey, upstreamModel }) => ({
      url: joinUrl(channel.baseUrl, `/v1beta/models/${encodeURIComponent(upstreamModel)}:batchEmbedContents`),
      headers: { 'x-goog-api-key': apiKey },
    }),
  },
  // Gemini's image models answer images through generateContent (translated by the Gemini codec).
  media: {
    operations: ['images/generations'],
    wire: () => 'gemini-image',
    buildRequest: ({ channel, apiKey, upstreamModel }) => ({
      url: joinUrl(channel.baseUrl, `/v1beta/models/${encodeURIComponent(upstreamModel)}:generateContent`),
      headers: { 'x-goog-api-key': apiKey },
    }),
  },
};
