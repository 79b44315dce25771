import { Writable } from 'node:stream';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { ReplyStream } from '../relay/client-writer.ts';

/** Where a socket turn's messages go: one WebSocket text message each (`done` once it left the process). */
export interface MessageSink {
  send(text: string, done: () => void): void;
  /**
   * Holds the socket's writes until `uncork` (optional): the messages of one upstream chunk
   * leave in one write instead of one syscall each.
   */
  cork?(): void;
  uncork?(): void;
}

/**
 * One `response.create` turn of a Responses WebSocket, seen by the pipeline as an HTTP reply
 * (`ReplyStream`), so a socket turn runs through exactly the code an HTTP request does. The
 * pipeline writes the Responses SSE stream it would send over HTTP; each event's `data` goes out
 * as one WebSocket message (OpenAI's WebSocket mode sends the same JSON events, without SSE
 * framing). An error reply (status ≥ 400, a JSON body) goes out as one `error` event carrying
 * the status, as OpenAI's socket reports a refused `response.create`.
 *
 * Backpressure: a write is done only when its messages were handed to the socket (`ws` calls
 * back after the kernel took them), and this stream's buffer is small, so a slow reader makes
 * `write` return false, the ClientWriter waits for `drain`, and the relay stops reading the
 * upstream: a turn never buffers more than about `highWaterMark` bytes for a slow client.
 */
export class SocketReplyStream extends Writable implements ReplyStream {
  headersSent = false;
  status = 200;
  readonly #sink: MessageSink;
  readonly #streamId: string | undefined;
  readonly #onEvent: ((type: string, data: string) => void) | undefined;
  readonly #parser: EventSourceParser;
  readonly #decoder = new TextDecoder();
  /** Messages the parser produced from the chunk being written. */
  #batch: string[] = [];
  /** An error reply's body, gathered until the end. */
  #errorBody = '';

  constructor(sink: MessageSink, options: { streamId?: string | undefined; onEvent?: (type: string, data: string) => void; highWaterMark?: number } = {}) {
    super({ decodeStrings: false, highWaterMark: options.highWaterMark ?? 64 * 1024 });
    this.#sink = sink;
    this.#streamId = options.streamId;
    this.#onEvent = options.onEvent;
    this.#parser = createParser({
      onEvent: (event) => {
        if (event.data === '' || event.data === '[DONE]') return;
        this.#onEvent?.(event.event ?? '', event.data);
        this.#batch.push(this.#tagged(event.data));
      },
    });
  }

  writeHead(status: number, _headers: Record<string, string>): this {
    if (this.headersSent) return this;
    this.headersSent = true;
    this.status = status;
    return this;
  }

  override _write(chunk: string | Uint8Array, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    if (this.status >= 400) {
      this.#errorBody += text;
      callback();
      return;
    }
    this.#parser.feed(text);
    this.#flush(callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.status >= 400) {
      this.#batch.push(this.#tagged(errorEvent(this.status, this.#errorBody)));
    } else {
      // An unterminated last event still counts (SSE ends an event at a blank line).
      this.#parser.feed('\n\n');
    }
    this.#flush(callback);
  }

  /** Sends the batch; calls back once the socket took the last message of it. */
  #flush(callback: () => void): void {
    const batch = this.#batch;
    if (batch.length === 0) {
      callback();
      return;
    }
    this.#batch = [];
    let left = batch.length;
    const sink = this.#sink;
    if (left > 1) sink.cork?.();
    for (const message of batch) {
      sink.send(message, () => {
        left -= 1;
        if (left === 0) callback();
      });
    }
    if (batch.length > 1) sink.uncork?.();
  }

  /** With a `stream_id` on the request, every event names it (OpenAI's multiplexed lanes). */
  #tagged(data: string): string {
    if (this.#streamId === undefined || !data.startsWith('{') || data.length < 3) return data;
    return `{"stream_id":${JSON.stringify(this.#streamId)},${data.slice(1)}`;
  }
}

/** OpenAI's socket error event: `{"type":"error","status":…,"error":{type,code,message,param}}`. */
export function errorEvent(status: number, body: string): string {
  let error: unknown;
  try {
    error = (JSON.parse(body) as { error?: unknown }).error;
  } catch {
    error = undefined;
  }
  return JSON.stringify({ type: 'error', status, error: error ?? { type: 'server_error', code: 'internal_error', message: body, param: null } });
}
