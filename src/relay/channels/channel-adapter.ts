import type { EmbeddingUpstreamWire } from '../../protocols/embeddings/index.ts';
import type { ProtocolId, UpstreamProtocolId } from '../../protocols/protocol-codec.ts';
import type { Channel } from '../../domain/channel.ts';
import type { ChannelKind } from '../../domain/channel-kind.ts';
import type { MediaWire } from '../../core/image-result.ts';

/** Where and how to send one upstream request. */
export interface UpstreamTarget {
  url: string;
  headers: Record<string, string>;
  /** The body to send when the kind reshapes it (Vertex's Anthropic body); otherwise the input body. */
  body?: string;
}

export interface BuildRequestInput {
  channel: Channel;
  /** The upstream secret chosen for this attempt. */
  apiKey: string;
  protocol: UpstreamProtocolId;
  upstreamModel: string;
  stream: boolean;
  /** Client headers a same-protocol upstream should see unchanged (e.g. `anthropic-beta`). */
  forwardedHeaders: Record<string, string>;
  /** The JSON body the codec (or the passthrough lane) produced; signing kinds sign it. */
  body: string;
  /** Ends credential exchanges (a Vertex token mint) with the request. */
  signal?: AbortSignal;
}

/**
 * How an upstream frames a stream: Server-Sent Events (everyone but Bedrock) or AWS's binary
 * event-stream, which the relay turns into SSE messages before the codec sees them.
 */
export type StreamFraming = 'sse' | 'aws-event-stream';

/**
 * A kind of upstream: how to reach it. Deliberately small — what the wire looks like is the
 * protocol codec's business; a new kind is one file plus one line in `channel-registry.ts`.
 */
export interface ChannelAdapter {
  readonly kind: ChannelKind;
  /** The protocols this kind speaks, best first. */
  readonly protocols: readonly UpstreamProtocolId[];
  /** Stream framing; `sse` when absent. */
  readonly streamFraming?: StreamFraming;
  /**
   * Which protocol to use for a request that arrived in `clientProtocol`, for the upstream
   * model (Vertex serves Gemini and Claude models, each in its own wire format).
   */
  selectProtocol(channel: Channel, clientProtocol: ProtocolId, upstreamModel: string): UpstreamProtocolId;
  /** May be asynchronous: cloud kinds mint or sign credentials per request. */
  buildRequest(input: BuildRequestInput): UpstreamTarget | Promise<UpstreamTarget>;
  /** The cheapest request that proves the channel works (for channel tests and health checks). */
  buildProbe?(model: string): Record<string, unknown>;
  /** Embeddings, for kinds whose provider serves them (Anthropic does not). */
  readonly embeddings?: EmbeddingEndpoint;
  /** OpenAI's media operations (images, ...), for kinds that serve them in OpenAI's own wire format. */
  readonly media?: MediaEndpoint;
  /**
   * The upstream's error type when the kind names it in a response header rather than the body
   * (Bedrock's `x-amzn-errortype`); it wins over the body's type for logs and classification.
   */
  errorTypeFromHeaders?(headers: UpstreamResponseHeaders): string | undefined;
}

/** Response headers as the HTTP client hands them over (lower-case names). */
export type UpstreamResponseHeaders = Record<string, string | string[] | undefined>;

/** Where a kind sends embeddings and in which wire format (chosen per upstream model on Bedrock). */
export interface EmbeddingEndpoint {
  wire(upstreamModel: string): EmbeddingUpstreamWire;
  buildRequest(input: EmbeddingBuildInput): UpstreamTarget | Promise<UpstreamTarget>;
}

export interface EmbeddingBuildInput {
  channel: Channel;
  apiKey: string;
  upstreamModel: string;
  /** The wire body for this call; signing kinds sign it. */
  body: string;
  signal?: AbortSignal;
}

/**
 * The whole-reply operations a channel may serve in OpenAI's own wire format, named by their path
 * under OpenAI's `/v1`: the media endpoints, and Responses compaction (passed through as is).
 */
export type MediaOperation =
  | 'images/generations'
  | 'images/edits'
  | 'audio/speech'
  | 'audio/transcriptions'
  | 'audio/translations'
  | 'moderations'
  | 'rerank'
  | 'responses/compact';

/** Every operation of OpenAI's own API an OpenAI-compatible host may serve (rerank where its host does). */
export const OPENAI_MEDIA_OPERATIONS: readonly MediaOperation[] = [
  'images/generations',
  'images/edits',
  'audio/speech',
  'audio/transcriptions',
  'audio/translations',
  'moderations',
  'rerank',
];

/**
 * Where a kind sends a media request. OpenAI-compatible kinds take OpenAI's body as the client's
 * codec left it; a kind with `wire` speaks its own (images on Gemini and Vertex), named per upstream
 * model, and the request is translated into it by the codecs.
 */
export interface MediaEndpoint {
  readonly operations: readonly MediaOperation[];
  /** The wire the upstream model speaks for these operations; OpenAI's when absent. */
  wire?(upstreamModel: string): MediaWire;
  buildRequest(input: MediaBuildInput): UpstreamTarget | Promise<UpstreamTarget>;
}

export interface MediaBuildInput {
  channel: Channel;
  apiKey: string;
  upstreamModel: string;
  operation: MediaOperation;
}

/** Joins a base address and a path without doubling or dropping the slash. */
export function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.endsWith('/') ? `${baseUrl.slice(0, -1)}${path}` : `${baseUrl}${path}`;
}
