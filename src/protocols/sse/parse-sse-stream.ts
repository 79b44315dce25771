import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import type { GatewayError } from '../../core/gateway-error.ts';
import { EventTextDecoder } from './event-text-decoder.ts';
import { SseEventSplitter } from './sse-event-splitter.ts';
import type { SseLimits } from './sse-limits.ts';
import type { SseMessage } from './sse-message.ts';

const TERMINATOR = new Uint8Array([10, 10]);

/**
 * An upstream SSE byte stream, parsed with limits: each chunk is cut at its last event boundary
 * (`SseEventSplitter`: one event and the whole stream bounded, each byte searched once), the
 * whole events are decoded by shared `TextDecoder`s (`EventTextDecoder`) and parsed by
 * `eventsource-parser`, which calls `onMessage` for each event. The bytes of those whole events
 * are returned too, for a lane that forwards them as they came. The parser is fed whole events
 * only, so it never holds (and rescans) an unfinished line.
 *
 * The one way into SSE parsing (after vercel/ai's `parseJsonEventStream`, without web streams: an
 * open stream holds this object, its splitter, its decoder state and the parser, nothing more).
 */
export class SseStreamParser {
  readonly #splitter: SseEventSplitter;
  readonly #decoder = new EventTextDecoder();
  readonly #parser: EventSourceParser;

  constructor(limits: SseLimits, onMessage: (message: SseMessage) => void) {
    this.#splitter = new SseEventSplitter(limits);
    this.#parser = createParser({ onEvent: (event: EventSourceMessage) => onMessage(toMessage(event)) });
  }

  /** Set once a limit is passed; the stream is then abandoned. */
  get failure(): GatewayError | undefined {
    return this.#splitter.failure;
  }

  /**
   * Parses the whole events this chunk completes and returns their bytes (empty when it completes
   * none: bytes after the last blank line wait for the next chunk), or undefined once a limit is
   * passed (see `failure`).
   */
  push(chunk: Uint8Array): Uint8Array | undefined {
    const complete = this.#splitter.push(chunk);
    if (complete !== undefined && complete.length > 0) this.#parser.feed(this.#decoder.decode(complete));
    return complete;
  }

  /**
   * The upstream ended: an event it did not close with a blank line is still complete. Parses it
   * and returns its bytes with the blank line added, or undefined when nothing was pending.
   */
  end(): Uint8Array | undefined {
    const rest = this.#splitter.rest();
    if (rest === undefined) return undefined;
    this.#parser.feed(`${this.#decoder.decodeTail(rest)}\n\n`);
    const closed = new Uint8Array(rest.length + TERMINATOR.length);
    closed.set(rest, 0);
    closed.set(TERMINATOR, rest.length);
    return closed;
  }
}

/** `new SseStreamParser(limits, onMessage)`: the SSE stream `onMessage` hears, within `limits`. */
export function parseSseStream(limits: SseLimits, onMessage: (message: SseMessage) => void): SseStreamParser {
  return new SseStreamParser(limits, onMessage);
}

function toMessage(event: EventSourceMessage): SseMessage {
  return event.event === undefined ? { data: event.data } : { event: event.event, data: event.data };
}
