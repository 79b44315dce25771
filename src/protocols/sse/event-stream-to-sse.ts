import type * as EventStreamCodecModule from '@smithy/eventstream-codec';
import type * as Utf8Module from '@smithy/util-utf8';
import { requireOnDemand } from '../../core/require-on-demand.ts';
import { GatewayError } from '../../core/gateway-error.ts';

// Loaded by the first Bedrock stream, not at start-up: most gateways have no Bedrock channel.
let loaded: { codec: EventStreamCodecModule.EventStreamCodec; toUtf8: typeof Utf8Module.toUtf8 } | undefined;
function smithy(): NonNullable<typeof loaded> {
  if (!loaded) {
    const { toUtf8, fromUtf8 } = requireOnDemand('@smithy/util-utf8') as typeof Utf8Module;
    const { EventStreamCodec } = requireOnDemand('@smithy/eventstream-codec') as typeof EventStreamCodecModule;
    loaded = { codec: new EventStreamCodec(toUtf8, fromUtf8), toUtf8 };
  }
  return loaded;
}
const encoder = new TextEncoder();
/** A frame's prelude says its total length; AWS caps messages at 16 MiB. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * AWS event-stream (binary frames, each with headers, a payload and CRCs) → SSE text, so
 * the Converse codec reads Bedrock streams the way every other codec reads its upstream:
 * `event: <:event-type>` / `data: <payload JSON>`. Exceptions become `event: exception` with
 * the `exceptionType` added to their JSON. A frame with a bad checksum or length ends the
 * stream with `upstream_invalid_response`. Frames split across chunks are reassembled.
 */
export async function* eventStreamToSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let buffer: Uint8Array = new Uint8Array(0);
  const state = { invoke: false };
  for await (const chunk of body) {
    buffer = buffer.length === 0 ? chunk : concat(buffer, chunk);
    let out = '';
    while (buffer.length >= 4) {
      const total = new DataView(buffer.buffer, buffer.byteOffset, 4).getUint32(0);
      if (total < 16 || total > MAX_FRAME_BYTES) throw malformed(`a frame claims ${total} bytes`);
      if (buffer.length < total) break;
      out += frameToSse(buffer.subarray(0, total), state);
      buffer = buffer.subarray(total);
    }
    if (out !== '') yield encoder.encode(out);
  }
  if (buffer.length > 0) throw malformed('the stream ended inside a frame');
}

/** `invoke`: the stream has carried InvokeModel chunks, so its exceptions are told in the model's own terms. */
function frameToSse(frame: Uint8Array, state: { invoke: boolean }): string {
  let message;
  try {
    message = smithy().codec.decode(frame);
  } catch (error) {
    throw malformed((error as Error).message);
  }
  const header = (name: string): string | undefined => {
    const value = message.headers[name]?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const payload = smithy().toUtf8(message.body);
  const messageType = header(':message-type') ?? 'event';
  if (messageType === 'event') {
    const eventType = header(':event-type') ?? 'unknown';
    if (eventType === 'chunk') {
      state.invoke = true;
      return invokeChunkToSse(payload);
    }
    return `event: ${eventType}\ndata: ${oneLine(payload || '{}')}\n\n`;
  }
  // `exception` frames carry a modelled error (`:exception-type`), `error` frames a bare code.
  const exceptionType = header(':exception-type') ?? header(':error-code') ?? 'error';
  let fields: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(payload);
    if (typeof parsed === 'object' && parsed !== null) fields = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the message header (or the raw text) still says what happened.
  }
  const message_ = fields.message ?? fields.Message ?? header(':error-message') ?? payload;
  // Inside a Claude InvokeModel stream: Anthropic's own error event, which its lanes end on.
  if (state.invoke) {
    const error = { type: anthropicErrorType(exceptionType), message: typeof message_ === 'string' ? message_ : exceptionType };
    return `event: error\ndata: ${JSON.stringify({ type: 'error', error })}\n\n`;
  }
  return `event: exception\ndata: ${JSON.stringify({ ...fields, exceptionType, message: message_ })}\n\n`;
}

/**
 * InvokeModelWithResponseStream wraps each of the model's own stream events in a `chunk` frame
 * as base64 `bytes` (for Claude: one Anthropic Messages SSE event's JSON): unwrapped to the event
 * the model's codec reads, named after its `type`.
 */
function invokeChunkToSse(payload: string): string {
  let bytes: unknown;
  try {
    bytes = (JSON.parse(payload) as { bytes?: unknown }).bytes;
  } catch {
    throw malformed('a chunk frame is not JSON');
  }
  if (typeof bytes !== 'string') throw malformed('a chunk frame has no bytes');
  const event = Buffer.from(bytes, 'base64').toString('utf8');
  let type: unknown;
  try {
    type = (JSON.parse(event) as { type?: unknown }).type;
  } catch {
    throw malformed('a chunk is not JSON');
  }
  return `event: ${typeof type === 'string' ? type : 'unknown'}\ndata: ${oneLine(event)}\n\n`;
}

function anthropicErrorType(exceptionType: string): string {
  const type = exceptionType.toLowerCase();
  if (type.startsWith('throttling')) return 'rate_limit_error';
  if (type.startsWith('validation')) return 'invalid_request_error';
  if (type.startsWith('serviceunavailable') || type.startsWith('modelnotready')) return 'overloaded_error';
  return 'api_error';
}

/** JSON payloads have no raw newlines, but a defensive re-serialisation keeps SSE framing intact. */
function oneLine(payload: string): string {
  if (!payload.includes('\n')) return payload;
  try {
    return JSON.stringify(JSON.parse(payload));
  } catch {
    return payload.replace(/\r?\n/g, ' ');
  }
}

function malformed(detail: string): GatewayError {
  return new GatewayError('upstream_invalid_response', `The upstream Bedrock event stream was malformed: ${detail}.`);
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first, 0);
  joined.set(second, first.length);
  return joined;
}
