import { GatewayError } from '../core/gateway-error.ts';
import { cleanUpstreamText, redactSecrets } from '../core/redact-secrets.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { StreamEvent } from '../core/stream-event.ts';
import type { Usage } from '../core/usage.ts';
import type { PassthroughStream, ProtocolCodec, StreamDecoder, StreamEncoder, StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import { toGatewayError } from '../upstream/upstream-client.ts';
import type { ClientWriter } from './client-writer.ts';
import { DEFAULT_REPLY_LIMITS, type ReplyLimits } from './reply-limits.ts';
import { parseSseStream, type SseStreamParser } from '../sse/parse-sse-stream.ts';

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
}

/**
 * Moves an upstream SSE stream to the client one upstream chunk at a time, never holding more.
 * Passthrough forwards the upstream's bytes untouched, cut at event boundaries, and taps usage;
 * the translated lane decodes to canonical events and re-encodes them for the client. Either
 * way, a stream that fails or ends early ends with the client protocol's own in-stream error.
 */
export async function pipeStream(input: PipeStreamInput): Promise<StreamOutcome> {
  const lane: Lane = input.passthrough ? new PassthroughLane(input) : new TranslatedLane(input);
  const keepAlive = input.clientCodec.passthrough.keepAliveFrame;
  const timer = keepAlive
    ? setTimeout(function ping() {
        void input.writer.write(keepAlive);
        timer?.refresh();
      }, input.keepAliveMs)
    : undefined;
  timer?.unref();

  let failure: GatewayError | undefined;
  // Only the chunk in hand is held: the input's first chunk, and each chunk and its output once
  // written, are dropped before waiting for the next one (a suspended async function keeps
  // whatever its locals last pointed at, for as long as the upstream stays silent).
  let chunk: Uint8Array | undefined = input.firstChunk;
  input.firstChunk = EMPTY_CHUNK;
  let out: string | Uint8Array = '';
  let next: IteratorResult<Uint8Array> | undefined;
  try {
    while (chunk !== undefined && !input.writer.closed) {
      timer?.refresh();
      out = lane.push(chunk);
      chunk = undefined;
      if (out.length > 0) await input.writer.write(out);
      out = '';
      if (lane.failed) {
        input.abortUpstream();
        break;
      }
      next = await input.rest.next();
      chunk = next.done ? undefined : next.value;
      next = undefined;
    }
  } catch (error) {
    failure = toGatewayError(error);
  } finally {
    if (timer) clearTimeout(timer);
  }
  if (!input.writer.closed) input.writer.end(failure ? lane.fail(failure) : lane.end());
  return lane.outcome(failure);
}

interface Lane {
  /** Text or bytes to write for this upstream chunk. */
  push(chunk: Uint8Array): string | Uint8Array;
  /** Whatever closes the stream after the upstream ended (or the error if it ended early). */
  end(): string;
  fail(error: GatewayError): string;
  /** The lane gave up on the upstream (malformed data); the stream is already closed with an error. */
  readonly failed: boolean;
  outcome(failure: GatewayError | undefined): StreamOutcome;
}

const EMPTY_CHUNK = new Uint8Array(0);

/**
 * The passthrough lane: the upstream speaks the client's protocol, so its bytes go to the client
 * as they are, whole events at a time, while the protocol's passthrough stream meters them and
 * spots the end. `parseSseStream` cuts whole events (each byte searched once, one event and the
 * whole stream bounded) and parses them. The lanes are classes
 * because one lives as long as its stream: closures over a shared scope cost an open stream a
 * function object each, and an object literal with a getter is kept as a dictionary.
 */
class PassthroughLane implements Lane {
  readonly #wire: PassthroughStream;
  readonly #secrets: readonly string[];
  readonly #messages: SseMessage[] = [];
  readonly #sse: SseStreamParser;
  #ended = false;
  #upstreamError: GatewayError | undefined;
  #malformed: GatewayError | undefined;

  constructor(input: PipeStreamInput) {
    this.#wire = input.upstreamCodec.passthrough.openStream(input.runtime, input.encoderOptions);
    this.#secrets = input.secrets ?? [];
    this.#sse = parseSseStream(input.limits ?? DEFAULT_REPLY_LIMITS, (message) => this.#messages.push(message));
  }

  push(chunk: Uint8Array): string | Uint8Array {
    // Forward only whole events: bytes after the last blank line wait for the next chunk, so
    // a stream cut mid-event never hands the client half an event.
    const complete = this.#sse.push(chunk);
    if (complete === undefined) {
      this.#malformed = this.#sse.failure;
      return this.#wire.error(this.#malformed as GatewayError);
    }
    return complete.length === 0 ? '' : this.#forward(complete);
  }

  end(): string {
    // An upstream that closes without the final blank line still had its last event complete.
    let tail = '';
    const rest = this.#malformed ? undefined : this.#sse.end();
    if (rest) {
      const out = this.#forward(rest);
      tail = typeof out === 'string' ? out : Buffer.from(out).toString('utf8');
    }
    if (this.#malformed) return tail;
    if (this.#ended) return tail + this.#wire.end();
    this.#malformed = new GatewayError('upstream_invalid_response', 'The upstream stream ended before its last event; the reply is incomplete.');
    return tail + this.#wire.error(this.#malformed);
  }

  fail(error: GatewayError): string {
    return this.#wire.error(error);
  }

  get failed(): boolean {
    return this.#malformed !== undefined;
  }

  outcome(failure: GatewayError | undefined): StreamOutcome {
    return { usage: this.#wire.usage(), error: failure ?? this.#malformed ?? this.#upstreamError, deliveredChars: this.#wire.deliveredChars };
  }

  /** Writes the whole events just parsed (`complete`, their bytes; `#messages`, their events). */
  #forward(complete: Uint8Array): string | Uint8Array {
    const out = this.#frameEvents(complete);
    // The messages slice the chunk's text: not kept while the stream waits for its next chunk.
    this.#messages.length = 0;
    return out;
  }

  /**
   * Handles whole events; returns what to write: the upstream's bytes themselves, unless one of
   * these events cannot go out as it came (the client's framing differs, or it is the usage
   * event the gateway asked for on the client's behalf) — then the protocol re-frames them.
   */
  #frameEvents(complete: Uint8Array): string | Uint8Array {
    const messages = this.#messages;
    const wire = this.#wire;
    let asIs = true;
    for (const [index, message] of messages.entries()) {
      const mark = wire.observe(message);
      if (mark === 'malformed') {
        this.#malformed = new GatewayError('upstream_invalid_response', 'The upstream sent a malformed event; the reply was cut short.');
        return messages.slice(0, index).map((message) => wire.frame(message)).join('') + wire.error(this.#malformed);
      }
      if (mark === 'end') this.#ended = true;
      if (mark === 'error') {
        this.#ended = true;
        this.#upstreamError = new GatewayError('upstream_error', 'The upstream reported an error mid-stream.');
        // The upstream's own error event goes to the client; it must not carry the channel's key.
        const data = redactSecrets(message.data, this.#secrets);
        if (data !== message.data) {
          messages[index] = { ...message, data };
          asIs = false;
        }
      }
      if (asIs && !wire.forwardsAsIs(message)) asIs = false;
    }
    return asIs ? complete : messages.map((message) => wire.frame(message)).join('');
  }
}

/** The translated lane: upstream events decoded to canonical ones and re-encoded for the client. */
class TranslatedLane implements Lane {
  readonly #decoder: StreamDecoder;
  readonly #encoder: StreamEncoder;
  readonly #transform: ((event: StreamEvent) => StreamEvent[]) | undefined;
  readonly #secrets: readonly string[];
  readonly #sse: SseStreamParser;
  #out = '';
  #usage: Usage | undefined;
  #streamError: GatewayError | undefined;
  #deliveredChars = 0;
  #limitError: GatewayError | undefined;

  constructor(input: PipeStreamInput) {
    this.#decoder = input.upstreamCodec.createStreamDecoder(input.runtime);
    this.#encoder = input.clientCodec.createStreamEncoder(input.runtime, input.encoderOptions);
    this.#transform = input.transformEvents;
    this.#secrets = input.secrets ?? [];
    this.#sse = parseSseStream(input.limits ?? DEFAULT_REPLY_LIMITS, (message) => this.#encode(this.#decoder.push(message)));
  }

  push(chunk: Uint8Array): string {
    if (this.#sse.push(chunk) === undefined) {
      this.#limitError = this.#sse.failure as GatewayError;
      this.#encode([{ type: 'error', error: this.#limitError }]);
    }
    return this.#take();
  }

  end(): string {
    if (this.#limitError) return '';
    this.#sse.end();
    this.#encode(this.#decoder.end());
    return this.#take() + this.#encoder.end();
  }

  fail(error: GatewayError): string {
    this.#encode([{ type: 'error', error }]);
    return this.#take();
  }

  get failed(): boolean {
    return this.#limitError !== undefined;
  }

  outcome(failure: GatewayError | undefined): StreamOutcome {
    return { usage: this.#usage, error: failure ?? this.#limitError ?? this.#streamError, deliveredChars: this.#deliveredChars };
  }

  #take(): string {
    const text = this.#out;
    this.#out = '';
    return text;
  }

  #encode(decoded: StreamEvent[]): void {
    const events = this.#transform ? decoded.flatMap(this.#transform) : decoded;
    for (let event of events) {
      switch (event.type) {
        case 'usage':
          this.#usage = event.usage;
          break;
        case 'response-end':
          if (event.usage) this.#usage = event.usage;
          break;
        case 'error':
          // Redacted before the encoder sees it: the client, the usage log and channel health all read this text.
          event = { type: 'error', error: redactError(event.error, this.#secrets) };
          this.#streamError = event.error;
          break;
        case 'text-delta':
        case 'reasoning-delta':
          this.#deliveredChars += event.delta.length;
          break;
        case 'tool-call-delta':
          this.#deliveredChars += event.argumentsDelta.length;
          break;
        case 'reasoning-end':
          // Signed or redacted reasoning is reasoning the upstream did, shown to the client opaquely.
          this.#deliveredChars += (event.signature?.length ?? 0) + (event.redactedData?.length ?? 0);
          break;
        default:
          break;
      }
      this.#out += this.#encoder.push(event);
    }
  }
}

/** The same error with the channel's secrets cut from its message and upstream type. */
function redactError(error: GatewayError, secrets: readonly string[]): GatewayError {
  if (secrets.length === 0) return error;
  const message = cleanUpstreamText(redactSecrets(error.message, secrets));
  const upstreamType = error.upstreamType === undefined ? undefined : redactSecrets(error.upstreamType, secrets);
  if (message === error.message && upstreamType === error.upstreamType) return error;
  return new GatewayError(error.code, message, {
    status: error.status,
    ...(error.param === undefined ? {} : { param: error.param }),
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
    ...(upstreamType === undefined ? {} : { upstreamType }),
    ...(error.upstreamCodes === undefined ? {} : { upstreamCodes: error.upstreamCodes.map((code) => redactSecrets(code, secrets)) }),
  });
}
