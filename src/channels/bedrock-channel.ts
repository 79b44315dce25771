import { parseAwsCredential, signAwsRequest } from './auth/aws-credentials.ts';
import { bedrockCohereEmbeddingsWire, bedrockTitanEmbeddingsWire, isBedrockCohereEmbedModel } from '../protocols/embeddings/index.ts';
import type { Channel } from '../domain/channel.ts';
import type { ChannelAdapter, UpstreamTarget } from './channel-adapter.ts';
import { joinUrl } from './channel-adapter.ts';

/**
 * AWS Bedrock through the Converse API: `/model/{id}/converse` and `/converse-stream` (the
 * latter framed as AWS event-stream). The upstream model (after `modelMap`) is a model id or
 * an inference profile id/ARN. Requests are SigV4-signed for service `bedrock` in the channel's
 * region, or carry a Bedrock API key as a bearer token.
 */
export const bedrockChannel: ChannelAdapter = {
  kind: 'bedrock',
  protocols: ['bedrock-converse'],
  streamFraming: 'aws-event-stream',
  selectProtocol: () => 'bedrock-converse',
  buildRequest({ channel, apiKey, upstreamModel, stream, body }) {
    const url = joinUrl(channel.baseUrl, `/model/${encodeURIComponent(upstreamModel)}/${stream ? 'converse-stream' : 'converse'}`);
    return authorize(channel, apiKey, url, stream ? 'application/vnd.amazon.eventstream' : 'application/json', body);
  },
  // Embedding models (Titan, Cohere) are reached through InvokeModel with their native bodies.
  embeddings: {
    wire: (upstreamModel) => (isBedrockCohereEmbedModel(upstreamModel) ? bedrockCohereEmbeddingsWire : bedrockTitanEmbeddingsWire),
    buildRequest: ({ channel, apiKey, upstreamModel, body }) =>
      authorize(channel, apiKey, joinUrl(channel.baseUrl, `/model/${encodeURIComponent(upstreamModel)}/invoke`), 'application/json', body),
  },
};

/** SigV4 for an access key, or a Bedrock API key as a bearer token. */
async function authorize(channel: Channel, apiKey: string, url: string, accept: string, body: string): Promise<UpstreamTarget> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept };
  const credential = parseAwsCredential(apiKey);
  if (credential.kind === 'bearer') return { url, headers: { ...headers, authorization: `Bearer ${credential.token}` } };
  const signed = await signAwsRequest({
    url: new URL(url),
    headers,
    body,
    region: channel.region ?? regionFromUrl(channel.baseUrl) ?? 'us-east-1',
    service: 'bedrock',
    credential,
  });
  return { url, headers: signed };
}

function regionFromUrl(baseUrl: string): string | undefined {
  return /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(baseUrl)?.[1];
}
