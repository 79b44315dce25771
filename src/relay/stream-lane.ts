import type { GatewayError } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { StreamEvent } from '../core/stream-event.ts';
import type { Usage } from '../core/usage.ts';
import type { ProtocolCodec, StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import type { ClientWriter } from './client-writer.ts';
import type { ReplyLimits } from './reply-limits.ts';

export interface StreamOutcome {
  usage: Usage | undefined;
  /** Set when the stream failed after it began (the client got an in-stream error). */
  error: GatewayError | undefined;
  /** Characters of text and arguments delivered, to estimate usage when a cut stream reported none. */
  deliveredChars: number;
}

export interface PipeStreamInput {
  /** The first upstream chunk, already read (proof the upstream really started); pipeStream takes it and leaves an empty chunk here. */
  firstChunk: Uint8Array;
  rest: AsyncIterator<Uint8Array>;
  passthrough: boolean;
  clientCodec: ProtocolCodec;
  upstreamCodec: ProtocolCodec;
  encoderOptions: StreamEncoderOptions;
  runtime: RuntimeContext;
  writer: ClientWriter;
  /** Send the protocol's keep-alive after this much upstream silence. */
  keepAliveMs: number;
  /** Stops the upstream when the stream is abandoned (malformed upstream data). */
  abortUpstream: () => void;
  /** Translated lane only: rewrites canonical events between decoder and encoder (reasoning sealing). */
  transformEvents?: (event: StreamEvent) => StreamEvent[];
  /** The channel's credentials: redacted from in-stream error text, which an upstream may use to quote them. */
  secrets?: readonly string[];
  /** Bounds on one event and on the whole stream (default DEFAULT_REPLY_LIMITS). */
  limits?: ReplyLimits;
  /** Given, once the stream starts, a reader of its progress so far (RelayInput.watchStream). */
  watch?: (progress: () => StreamOutcome) => void;
}

/** One way of moving an upstream stream to the client (passthrough-stream-lane.ts, translated-stream-lane.ts). */
export interface Lane {
  /** Text or bytes to write for this upstream chunk. */
  push(chunk: Uint8Array): string | Uint8Array;
  /** Whatever closes the stream after the upstream ended (or the error if it ended early). */
  end(): string;
  fail(error: GatewayError): string;
  /** The lane gave up on the upstream (malformed data); the stream is already closed with an error. */
  readonly failed: boolean;
  outcome(failure: GatewayError | undefined): StreamOutcome;
}
