import { Readable } from 'node:stream';
import { GatewayError } from '../core/gateway-error.ts';

export { DEFAULT_REPLY_LIMITS, type ReplyLimits } from '../config/reply-limits.ts';

/**
 * An event larger than the bound is malformed upstream data (a line that never ends): the
 * channel's fault, counted against its health.
 */
export function eventTooLarge(limit: number): GatewayError {
  return new GatewayError(
    'upstream_invalid_response',
    `The upstream sent an event larger than ${limit} bytes (MAX_UPSTREAM_EVENT_BYTES); the reply was cut short.`,
  );
}

/** Marks a reply cut for its total size: the client asked for that much, so it is not the channel's fault. */
export const REPLY_TOO_LARGE = Symbol('reply too large');

/**
 * A reply past the total bound: cut with a clear error. The request asked for a longer reply
 * than this gateway carries, so the channel's health is not charged for it and no other
 * channel is tried (it would write as much).
 */
export function replyTooLarge(limit: number, setting = 'MAX_UPSTREAM_REPLY_BYTES'): GatewayError {
  const error = new GatewayError(
    'upstream_invalid_response',
    `The reply grew past ${limit} bytes (${setting}), more than this gateway carries for one request; it was cut short. Ask for less output (max_tokens) or fewer alternatives.`,
    { status: 502 },
  );
  (error as GatewayError & { [REPLY_TOO_LARGE]?: true })[REPLY_TOO_LARGE] = true;
  return error;
}

/** Whether an error is a reply cut for its total size (see `replyTooLarge`). */
export function isReplyTooLarge(error: GatewayError | undefined): boolean {
  return error !== undefined && (error as GatewayError & { [REPLY_TOO_LARGE]?: true })[REPLY_TOO_LARGE] === true;
}

/**
 * A plain (non-streamed) reply is one JSON document, held whole to decode: it is read up to
 * the event bound and no further (the connection is dropped, not drained).
 */
export async function readReplyText(body: AsyncIterable<Uint8Array> | { text(): Promise<string> }, limit: number): Promise<string> {
  if (body instanceof Readable) return readNodeStream(body, limit);
  if (typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function') {
    const text = await (body as { text(): Promise<string> }).text();
    if (Buffer.byteLength(text) > limit) throw replyTooLarge(limit, 'MAX_UPSTREAM_EVENT_BYTES');
    return text;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw replyTooLarge(limit, 'MAX_UPSTREAM_EVENT_BYTES');
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/**
 * `readReplyText` for a Node stream (undici's body), read in flowing mode with plain listeners:
 * the same result, errors and early destroy as the `for await` in `readReplyText`, without the async iterator's
 * machinery per reply (an iterator, an end-of-stream watcher, a promise and a tick per read),
 * which was a visible share of a passthrough request's CPU and allocation. A reply past the
 * bound destroys the body (the connection is dropped, not drained), as leaving the loop did.
 */
function readNodeStream(body: Readable, limit: number): Promise<string> {
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
