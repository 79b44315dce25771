import type { ChatRequest } from '../core/chat-request.ts';
import type { ChatResponse } from '../core/chat-response.ts';
import type { GatewayError } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { StreamEvent } from '../core/stream-event.ts';
import type { Usage } from '../core/usage.ts';
import type { Warning } from '../core/warning.ts';
import type { SseMessage } from '../sse/sse-message.ts';

/** A wire format. A channel kind says which of these it speaks; a client surface decodes one. */
export type ProtocolId =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'gemini-generate-content';

export interface Decoded<T> {
  value: T;
  warnings: Warning[];
}

/**
 * What arrived from a client: the parsed JSON body plus what some protocols carry outside it
 * (Gemini puts the model and the streaming choice in the URL path).
 */
export interface ClientRequestInput {
  body: unknown;
  pathModel?: string;
  pathStream?: boolean;
}

/** What to send upstream: the body plus the model name and stream flag the URL may need. */
export interface UpstreamRequestOutput {
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
}

/** Turns upstream SSE messages into canonical events; per-stream state lives in its closure. */
export interface StreamDecoder {
  push(message: SseMessage): StreamEvent[];
  /** The upstream closed its stream; emits whatever must close open blocks (or an error). */
  end(): StreamEvent[];
}

/** Turns canonical events into the client's wire bytes (already framed, ready to write). */
export interface StreamEncoder {
  push(event: StreamEvent): string;
  /** Whatever the protocol writes after the last event (OpenAI `[DONE]`, a closing `]`). */
  end(): string;
}

export interface StreamEncoderOptions {
  /** OpenAI chat: the client asked for `stream_options.include_usage`. */
  includeUsage?: boolean;
  /** Gemini: `alt=sse` (default) or a streamed JSON array. */
  format?: 'sse' | 'json-array';
}

/**
 * Watches a same-protocol stream without decoding every event, to meter usage on the
 * passthrough lane. It sees each SSE message and returns the usage once the stream ends.
 */
export interface UsageTap {
  observe(message: SseMessage): void;
  usage(): Usage | undefined;
}

export interface ErrorBody {
  status: number;
  body: unknown;
}

/**
 * A pure codec for one wire format: both directions for requests, responses, streams and
 * errors. No I/O, no clock, no randomness (they come from `RuntimeContext`).
 * Decoders are tolerant readers and throw `GatewayError('invalid_request')` naming the field
 * when a body cannot be understood; encoders are strict writers built from typed literals.
 */
export interface ProtocolCodec {
  readonly id: ProtocolId;
  decodeRequest(input: ClientRequestInput, context: RuntimeContext): Decoded<ChatRequest>;
  encodeRequest(request: ChatRequest, context: RuntimeContext): Decoded<UpstreamRequestOutput>;
  decodeResponse(body: unknown, context: RuntimeContext): Decoded<ChatResponse>;
  encodeResponse(response: ChatResponse, context: RuntimeContext): unknown;
  createStreamDecoder(context: RuntimeContext): StreamDecoder;
  createStreamEncoder(context: RuntimeContext, options?: StreamEncoderOptions): StreamEncoder;
  createUsageTap(): UsageTap;
  /** Renders a gateway error in this protocol's error shape. */
  encodeError(error: GatewayError, requestId: string): ErrorBody;
  /** Reads an upstream error body of this protocol into a message and type, tolerating junk. */
  decodeError(status: number, body: unknown): { message: string; type?: string };
}
