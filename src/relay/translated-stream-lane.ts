import { GatewayError } from '../core/gateway-error.ts';
import { cleanUpstreamText, redactSecrets } from '../core/redact-secrets.ts';
import type { StreamEvent } from '../core/stream-event.ts';
import type { Usage } from '../core/usage.ts';
import type { StreamDecoder, StreamEncoder } from '../protocols/protocol-codec.ts';
import { parseSseStream, type SseStreamParser } from '../protocols/sse/parse-sse-stream.ts';
import { DEFAULT_REPLY_LIMITS } from './reply-limits.ts';
import type { Lane, PipeStreamInput, StreamOutcome } from './stream-lane.ts';

/** The translated lane: upstream events decoded to canonical ones and re-encoded for the client. */
export class TranslatedLane implements Lane {
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
    // In the order bytes flow: SSE framing, the upstream's decoder, the client's encoder.
    this.#sse = parseSseStream(input.limits ?? DEFAULT_REPLY_LIMITS, (message) => this.#encode(this.#decoder.push(message)));
    this.#decoder = input.upstreamCodec.createStreamDecoder(input.runtime);
    this.#encoder = input.clientCodec.createStreamEncoder(input.runtime, input.encoderOptions);
    this.#transform = input.transformEvents;
    this.#secrets = input.secrets ?? [];
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
