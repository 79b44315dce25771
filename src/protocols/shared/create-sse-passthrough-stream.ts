import type { GatewayError } from '../../core/gateway-error.ts';
import type { SseMessage } from '../../sse/sse-message.ts';
import type { PassthroughStream, UsageTap } from '../protocol-codec.ts';
import { looksWellFormed } from './looks-well-formed.ts';

/** What a protocol tells the shared SSE passthrough stream about its events. */
export interface SsePassthroughRules {
  tap: UsageTap;
  /** How a well-formed event moves the stream on: its last event, an upstream error, or neither. */
  mark(message: SseMessage): 'end' | 'error' | undefined;
  countDeltaChars(data: string): number;
  /** An event the gateway asked for on the client's behalf, which the client must not see. */
  hides?: (message: SseMessage) => boolean;
  /** The protocol's in-stream error, SSE-framed. */
  encodeError(error: GatewayError): string;
}

/**
 * A passthrough stream whose client reads SSE exactly as the upstream writes it: events are
 * forwarded as they are, unless one must be hidden (then the chunk is re-framed without it).
 */
export function createSsePassthroughStream(rules: SsePassthroughRules): PassthroughStream {
  let deliveredChars = 0;
  const hides = rules.hides;
  return {
    observe(message) {
      if (!looksWellFormed(message.data)) return 'malformed';
      rules.tap.observe(message);
      deliveredChars += rules.countDeltaChars(message.data);
      return rules.mark(message);
    },
    forwardsAsIs: hides === undefined ? () => true : (message) => !hides(message),
    frame(message) {
      if (hides?.(message)) return '';
      return message.event === undefined ? `data: ${message.data}\n\n` : `event: ${message.event}\ndata: ${message.data}\n\n`;
    },
    end: () => '',
    error: (error) => rules.encodeError(error),
    usage: () => rules.tap.usage(),
    get deliveredChars() {
      return deliveredChars;
    },
  };
}
