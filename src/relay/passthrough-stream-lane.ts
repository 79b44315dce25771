import { GatewayError } from '../core/gateway-error.ts';
import { redactSecrets } from '../core/redact-secrets.ts';
import type { PassthroughStream } from '../protocols/protocol-codec.ts';
import { parseSseStream, type SseStreamParser } from '../protocols/sse/parse-sse-stream.ts';
import type { SseMessage } from '../protocols/sse/sse-message.ts';
import { DEFAULT_REPLY_LIMITS } from './reply-limits.ts';
import type { Lane, PipeStreamInput, StreamOutcome } from './stream-lane.ts';

/**
 * The passthrough lane: the upstream speaks the client's protocol, so its bytes go to the client
 * as they are, whole events at a time, while the protocol's passthrough stream meters them and
 * spots the end. `parseSseStream` cuts whole events (each byte searched once, one event and the
 * whole stream bounded) and parses them. The lanes are classes
 * because one lives as long as its stream: closures over a shared scope cost an open stream a
 * function object each, and an object literal with a getter is kept as a dictionary.
 */
export class PassthroughLane implements Lane {
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
        return (
          messages
            .slice(0, index)
            .map((message) => wire.frame(message))
            .join('') + wire.error(this.#malformed)
        );
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
