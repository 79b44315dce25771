import { createParser } from 'eventsource-parser';
import type { GatewayError } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { StreamEvent } from '../core/stream-event.ts';
import type { Usage } from '../core/usage.ts';
import type { ProtocolCodec, StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import { toGatewayError } from '../upstream/upstream-client.ts';
import type { ClientWriter } from './client-writer.ts';

export interface StreamOutcome {
  usage: Usage | undefined;
  /** Set when the stream failed after it began (the client got an in-stream error). */
  error: GatewayError | undefined;
  /** Characters of text and arguments delivered, to estimate usage when a cut stream reported none. */
  deliveredChars: number;
}

export interface PipeStreamInput {
  /** The first upstream chunk, already read (proof the upstream really started). */
  firstChunk: Uint8Array;
  rest: AsyncIterator<Uint8Array>;
  passthrough: boolean;
  clientCodec: ProtocolCodec;
  upstreamCodec: ProtocolCodec;
  encoderOptions: StreamEncoderOptions;
  /** The client asked for OpenAI's usage chunk (passthrough must hide the one we forced on). */
  clientWantsUsage: boolean;
  publicModel: string;
  runtime: RuntimeContext;
  writer: ClientWriter;
}

/**
 * Moves an upstream SSE stream to the client, chunk by chunk, never holding more than one
 * upstream chunk. Passthrough forwards bytes untouched (re-framing only when the client's
 * framing differs) and taps usage; the translated lane decodes to canonical events and
 * re-encodes them in the client's protocol.
 */
export async function pipeStream(input: PipeStreamInput): Promise<StreamOutcome> {
  const lane = input.passthrough ? createPassthroughLane(input) : createTranslatedLane(input);
  const decoder = new TextDecoder();
  let pending = '';
  const parser = createParser({
    onEvent: (event) => {
      pending += lane.onMessage(event.event === undefined ? { data: event.data } : { event: event.event, data: event.data });
    },
  });

  const forward = async (chunk: Uint8Array): Promise<void> => {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (lane.forwardsRawBytes) await input.writer.write(chunk);
    else if (pending !== '') {
      const text = pending;
      pending = '';
      await input.writer.write(text);
    }
  };

  let failure: GatewayError | undefined;
  try {
    await forward(input.firstChunk);
    for (;;) {
      if (input.writer.closed) break;
      const next = await input.rest.next();
      if (next.done) break;
      await forward(next.value);
    }
  } catch (error) {
    failure = toGatewayError(error);
  }
  if (!input.writer.closed) {
    pending += failure ? lane.onFailure(failure) : lane.onEnd();
    input.writer.end(pending);
  }
  return lane.outcome(failure);
}

interface Lane {
  forwardsRawBytes: boolean;
  onMessage(message: SseMessage): string;
  onEnd(): string;
  onFailure(error: GatewayError): string;
  outcome(failure: GatewayError | undefined): StreamOutcome;
}

function createPassthroughLane(input: PipeStreamInput): Lane {
  const tap = input.upstreamCodec.createUsageTap();
  const hideUsageChunk = input.clientCodec.id === 'openai-chat' && !input.clientWantsUsage;
  const jsonArray = input.encoderOptions.format === 'json-array';
  const forwardsRawBytes = !hideUsageChunk && !jsonArray;
  let arrayItems = 0;
  let deliveredChars = 0;
  return {
    forwardsRawBytes,
    onMessage(message) {
      tap.observe(message);
      deliveredChars += message.data.length;
      if (forwardsRawBytes) return '';
      if (jsonArray) return `${arrayItems++ === 0 ? '[' : ',\r\n'}${message.data}`;
      if (hideUsageChunk && isOpenAiUsageOnlyChunk(message.data)) return '';
      return `data: ${message.data}\n\n`;
    },
    onEnd: () => (jsonArray ? (arrayItems === 0 ? '[]' : ']') : ''),
    onFailure(error) {
      // A fresh encoder renders the client protocol's in-stream error; for a JSON-array
      // stream its SSE payload becomes the array's last element.
      const encoder = input.clientCodec.createStreamEncoder(input.runtime, { ...input.encoderOptions, format: 'sse' });
      const framed = encoder.push({ type: 'error', error });
      if (!jsonArray) return framed;
      return `${arrayItems === 0 ? '[' : ',\r\n'}${framed.replace(/^data: /, '').trimEnd()}]`;
    },
    outcome: (failure) => ({ usage: tap.usage(), error: failure, deliveredChars }),
  };
}

/** The usage-only chunk OpenAI sends last when asked: `"choices":[]` plus a usage object. */
function isOpenAiUsageOnlyChunk(data: string): boolean {
  return data.includes('"choices":[]') && data.includes('"usage":{');
}

function createTranslatedLane(input: PipeStreamInput): Lane {
  const decoder = input.upstreamCodec.createStreamDecoder(input.runtime);
  const encoder = input.clientCodec.createStreamEncoder(input.runtime, input.encoderOptions);
  let usage: Usage | undefined;
  let streamError: GatewayError | undefined;
  let deliveredChars = 0;

  const encode = (events: StreamEvent[]): string => {
    let out = '';
    for (const event of events) {
      switch (event.type) {
        case 'response-start':
          out += encoder.push({ ...event, model: input.publicModel });
          continue;
        case 'usage':
          usage = event.usage;
          break;
        case 'response-end':
          if (event.usage) usage = event.usage;
          break;
        case 'error':
          streamError = event.error;
          break;
        case 'text-delta':
        case 'reasoning-delta':
          deliveredChars += event.delta.length;
          break;
        case 'tool-call-delta':
          deliveredChars += event.argumentsDelta.length;
          break;
        default:
          break;
      }
      out += encoder.push(event);
    }
    return out;
  };

  return {
    forwardsRawBytes: false,
    onMessage: (message) => encode(decoder.push(message)),
    onEnd: () => encode(decoder.end()) + encoder.end(),
    onFailure: (error) => encode([{ type: 'error', error }]),
    outcome: (failure) => ({ usage, error: failure ?? streamError, deliveredChars }),
  };
}
