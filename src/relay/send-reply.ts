import { Readable } from 'node:stream';
import { GatewayError } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Usage } from '../core/usage.ts';
import type { ChatResponse } from '../core/chat-response.ts';
import type { ProtocolCodec, StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import { toGatewayError, type UpstreamResponse } from '../upstream/upstream-client.ts';
import type { ClientWriter } from './client-writer.ts';
import { DEFAULT_REPLY_LIMITS, readReplyText, replyTooLarge, type ReplyLimits } from './reply-limits.ts';

export interface SendReplyInput {
  response: UpstreamResponse;
  passthrough: boolean;
  clientCodec: ProtocolCodec;
  upstreamCodec: ProtocolCodec;
  runtime: RuntimeContext;
  writer: ClientWriter;
  headers: Record<string, string>;
  /** What the client asked of the reply (custom tools, …), as for its stream encoder. */
  encoderOptions?: StreamEncoderOptions;
  /** Translated lane only: rewrites the decoded reply before it is encoded (reasoning sealing). */
  transformResponse?: (response: ChatResponse) => ChatResponse;
  /** A plain reply is held whole: at most `maxEventBytes` of it (default DEFAULT_REPLY_LIMITS). */
  limits?: ReplyLimits;
}

export interface ReplyOutcome {
  usage: Usage | undefined;
  error: GatewayError | undefined;
  /** Characters of text, reasoning and tool arguments in the reply, to estimate usage an upstream did not report. */
  deliveredChars: number;
}

/**
 * A non-streamed reply. Passthrough sends the upstream's bytes unchanged and reads only its
 * usage; the translated lane decodes the reply and encodes it for the client.
 */
export async function sendReply(input: SendReplyInput): Promise<ReplyOutcome> {
  let text: string;
  try {
    const limit = (input.limits ?? DEFAULT_REPLY_LIMITS).maxEventBytes;
    const body = input.response.body;
    text = body instanceof Readable ? await readBodyText(body, limit) : await readReplyText(body, limit);
  } catch (error) {
    return { usage: undefined, error: toGatewayError(error), deliveredChars: 0 };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      usage: undefined,
      error: new GatewayError('upstream_invalid_response', 'The upstream sent a reply that is not valid JSON.'),
      deliveredChars: 0,
    };
  }

  if (input.passthrough) {
    let usage: Usage | undefined;
    // Undecodable: the whole reply's length stands in for its content (an estimate that errs high).
    let deliveredChars = text.length;
    try {
      const decoded = input.upstreamCodec.decodeResponse(parsed, input.runtime).value;
      usage = decoded.usage;
      deliveredChars = contentChars(decoded);
    } catch {
      // Unusual but valid for the client: forward it anyway; usage stays unknown.
    }
    writeWhole(input, text);
    return { usage, error: undefined, deliveredChars };
  }

  try {
    const decoded = input.upstreamCodec.decodeResponse(parsed, input.runtime).value;
    const body = input.clientCodec.encodeResponse(input.transformResponse ? input.transformResponse(decoded) : decoded, input.runtime, input.encoderOptions);
    writeWhole(input, JSON.stringify(body));
    return { usage: decoded.usage, error: undefined, deliveredChars: contentChars(decoded) };
  } catch (error) {
    return { usage: undefined, error: toGatewayError(error), deliveredChars: 0 };
  }
}

/**
 * The whole reply with its length: the client gets one plain body instead of a chunked one
 * (no chunk framing, and Node writes head and body as one string instead of gathering five parts
 * into a writev).
 */
function writeWhole(input: SendReplyInput, text: string): void {
  input.headers['content-length'] = String(Buffer.byteLength(text));
  input.writer.writeHead(200, input.headers);
  input.writer.end(text);
}

/**
 * `readReplyText` for a Node stream (undici's body), read in flowing mode with plain listeners:
 * the same result, errors and early destroy as its `for await`, without the async iterator's
 * machinery per reply (an iterator, an end-of-stream watcher, a promise and a tick per read),
 * which was a visible share of a passthrough request's CPU and allocation. A reply past the
 * bound destroys the body (the connection is dropped, not drained), as leaving the loop did.
 */
function readBodyText(body: Readable, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: unknown, text?: string) => {
      if (done) return;
      done = true;
      // The error listener stays: a body destroyed below (too large) or later still emits its
      // error (undici's RequestAbortedError), which must not reach the process as uncaught.
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('close', onClose);
      if (error === undefined) resolve(text as string);
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        finish(replyTooLarge(limit, 'MAX_UPSTREAM_EVENT_BYTES'));
        body.destroy();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(undefined, chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
    const onError = (error: unknown) => finish(error);
    // Closed before its end without an error: what `for await` reports as a premature close.
    const onClose = () => finish(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    if (body.errored) return finish(body.errored);
    if (body.destroyed || body.readableEnded) return finish(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

/** Characters a reply generated: text, reasoning, tool names and arguments. */
function contentChars(response: ChatResponse): number {
  let chars = 0;
  for (const part of response.content) {
    if (part.type === 'tool-call') chars += part.name.length + part.arguments.length;
    else chars += part.text.length;
  }
  return chars;
}
