import { Readable } from 'node:stream';
import { replyTooLarge } from '../protocols/sse/sse-limits.ts';

export { DEFAULT_REPLY_LIMITS, type ReplyLimits } from '../config/reply-limits.ts';

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
