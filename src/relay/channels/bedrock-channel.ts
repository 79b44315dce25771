import { parseAwsCredential, signAwsRequest } from './auth/aws-credentials.ts';
import { bedrockCohereEmbeddingsWire, bedrockTitanEmbeddingsWire, isBedrockCohereEmbedModel } from '../../protocols/embeddings/index.ts';
import type { Channel } from '../../domain/channel.ts';
import type { ChannelAdapter, UpstreamResponseHeaders, UpstreamTarget } from './channel-adapter.ts';
import { joinUrl } from './channel-adapter.ts';

/** The body field Claude models on Bedrock's InvokeModel require in place of the `anthropic-version` header. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** Anthropic's models on Bedrock: `anthropic.claude…`, cross-region profiles (`us.anthropic.claude…`) and their ARNs. */
export function isBedrockAnthropicModel(model: string): boolean {
  return /(^|[./:])anthropic\.claude/i.test(model);
}

/**
 * AWS Bedrock through the Converse API: `/model/{id}/converse` and `/converse-stream` (the
 * latter framed as AWS event-stream). The upstream model (after `modelMap`) is a model id or
 * an inference profile id/ARN. Requests are SigV4-signed for service `bedrock` in the channel's
 * region, or carry a Bedrock API key as a bearer token.
 *
 * An Anthropic Messages client calling a Claude model goes through InvokeModel
 * (`/invoke`, `/invoke-with-response-stream`) with Anthropic's own body instead: it rides the
 * passthrough lane, so thinking signatures, `cache_control`, betas and every field Converse has no
 * slot for round-trip exactly. Other clients keep Converse, the provider-neutral API.
 */
export const bedrockChannel: ChannelAdapter = {
  kind: 'bedrock',
  protocols: ['bedrock-converse', 'anthropic-messages'],
  streamFraming: 'aws-event-stream',
  selectProtocol: (_channel, clientProtocol, upstreamModel) =>
    clientProtocol === 'anthropic-messages' && isBedrockAnthropicModel(upstreamModel) ? 'anthropic-messages' : 'bedrock-converse',
  buildRequest({ channel, apiKey, protocol, upstreamModel, stream, body, forwardedHeaders }) {
    const accept = stream ? 'application/vnd.amazon.eventstream' : 'application/json';
    if (protocol === 'anthropic-messages') {
      const url = joinUrl(channel.baseUrl, `/model/${encodeURIComponent(upstreamModel)}/${stream ? 'invoke-with-response-stream' : 'invoke'}`);
      return authorize(channel, apiKey, url, accept, toBedrockAnthropicBody(body, forwardedHeaders['anthropic-beta']), true);
    }
    const url = joinUrl(channel.baseUrl, `/model/${encodeURIComponent(upstreamModel)}/${stream ? 'converse-stream' : 'converse'}`);
    return authorize(channel, apiKey, url, accept, body);
  },
  // Embedding models (Titan, Cohere) are reached through InvokeModel with their native bodies.
  embeddings: {
    wire: (upstreamModel) => (isBedrockCohereEmbedModel(upstreamModel) ? bedrockCohereEmbeddingsWire : bedrockTitanEmbeddingsWire),
    buildRequest: ({ channel, apiKey, upstreamModel, body }) =>
      authorize(channel, apiKey, joinUrl(channel.baseUrl, `/model/${encodeURIComponent(upstreamModel)}/invoke`), 'application/json', body),
  },
  errorTypeFromHeaders: bedrockErrorType,
};

/** An AWS error type is an exception name; anything else in the header is not one. */
const AWS_ERROR_TYPE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * Bedrock (Converse, ConverseStream, InvokeModel, embeddings) names its error only in the
 * `x-amzn-errortype` header, e.g. `ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/`
 * — the part before `:` is the type; the body is just `{"message": …}`.
 */
export function bedrockErrorType(headers: UpstreamResponseHeaders): string | undefined {
  const raw = headers['x-amzn-errortype'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.split(':')[0]?.trim();
  return value !== undefined && AWS_ERROR_TYPE.test(value) ? value : undefined;
}

/**
 * InvokeModel's Anthropic body: the Messages body less `model` (in the path) and `stream` (the
 * path says it), plus `anthropic_version`; the `anthropic-beta` header becomes `anthropic_beta`.
 */
export function toBedrockAnthropicBody(body: string, beta: string | undefined): string {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  delete parsed.model;
  delete parsed.stream;
  const betas =
    beta === undefined
      ? []
      : beta
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
  return JSON.stringify({ anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...parsed, ...(betas.length === 0 ? {} : { anthropic_beta: betas }) });
}

/** SigV4 for an access key, or a Bedrock API key as a bearer token. `reshaped`: the body differs from the plan's and goes with the target. */
async function authorize(channel: Channel, apiKey: string, url: string, accept: string, body: string, reshaped = false): Promise<UpstreamTarget> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept };
  const withBody = reshaped ? { body } : {};
  const credential = parseAwsCredential(apiKey);
  if (credential.kind === 'bearer') return { url, headers: { ...headers, authorization: `Bearer ${credential.token}` }, ...withBody };
  const signed = await signAwsRequest({
    url: new URL(url),
    headers,
    body,
    region: channel.region ?? regionFromUrl(channel.baseUrl) ?? 'us-east-1',
    service: 'bedrock',
    credential,
  });
  return { url, headers: signed, ...withBody };
}

function regionFromUrl(baseUrl: string): string | undefined {
  return /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(baseUrl)?.[1];
}
