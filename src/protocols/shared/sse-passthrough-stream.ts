import type { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { Usage } from '../../core/usage.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { PassthroughMark, PassthroughStream, StreamEncoderOptions, UsageTap } from '../protocol-codec.ts';
import { looksWellFormed } from './looks-well-formed.ts';

/**
 * What a protocol tells the shared SSE passthrough stream about its events. One constant per
 * protocol: a stream's own state lives in `SsePassthroughStream`, so an open stream holds no
 * closures of its own (a thousand open streams held a thousand copies of each).
 */
export interface SsePassthroughRules {
  /** How a well-formed event moves the stream on: its last event, an upstream error, or neither. */
  mark(message: SseMessage): 'end' | 'error' | undefined;
  countDeltaChars(data: string): number;
  /** The protocol's in-stream error, SSE-framed. */
  encodeError(error: GatewayError, context: RuntimeContext, options: StreamEncoderOptions): string;
  /**
   * The event's data with `usd` written in as the reply's cost (options.priceUsage), when this is
   * the event that carries the final usage; undefined for any other event.
   */
  addCost?(data: string, usd: number): string | undefined;
}

/**
 * A passthrough stream whose client reads SSE exactly as the upstream writes it: events are
 * forwarded as they are, unless one must be hidden (then the chunk is re-framed without it).
 * `hides` names an event the gateway asked for on the client's behalf, which the client must not see.
 */
export class SsePassthroughStream implements PassthroughStream {
  deliveredChars = 0;

  constructor(
    private readonly rules: SsePassthroughRules,
    private readonly tap: UsageTap,
    private readonly context: RuntimeContext,
    private readonly options: StreamEncoderOptions,
    private readonly hides?: (message: SseMessage) => boolean,
  ) {}

  observe(message: SseMessage): PassthroughMark {
    if (!looksWellFormed(message.data)) return 'malformed';
    this.tap.observe(message);
    this.deliveredChars += this.rules.countDeltaChars(message.data);
    return this.rules.mark(message);
  }

  forwardsAsIs(message: SseMessage): boolean {
    if (this.hides?.(message)) return false;
    return this.#priced(message) === undefined;
  }

  frame(message: SseMessage): string {
    if (this.hides?.(message)) return '';
    const data = this.#priced(message) ?? message.data;
    return message.event === undefined ? `data: ${data}\n\n` : `event: ${message.event}\ndata: ${data}\n\n`;
  }

  /** The final usage event with the cost written in, when the client asked for it (observed first: the tap has the usage). */
  #priced(message: SseMessage): string | undefined {
    const price = this.options.priceUsage;
    const usage = price === undefined || this.rules.addCost === undefined ? undefined : this.tap.usage();
    if (usage === undefined || price === undefined) return undefined;
    return this.rules.addCost?.(message.data, price(usage, this.deliveredChars));
  }

  end(): string {
    return '';
  }

  error(error: GatewayError): string {
    return this.rules.encodeError(error, this.context, this.options);
  }

  usage(): Usage | undefined {
    return this.tap.usage();
  }
}
