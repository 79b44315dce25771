import { once, type EventEmitter } from 'node:events';

/**
 * What the writer needs of the reply's transport: an HTTP response (`ServerResponse`), or a
 * turn on a WebSocket (`SocketReplyStream`, which turns the SSE it is given into messages).
 * `close` is emitted when the client leaves, `drain` when a full buffer emptied.
 */
export interface ReplyStream extends EventEmitter {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  readonly writableFinished: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string | Uint8Array): boolean;
  end(chunk?: string): unknown;
}

/**
 * Sees the reply as the client gets it (status, then every byte) and may hold back its end
 * until it has done something with it (stateful Responses store the turn before the client
 * can ask for it).
 */
export interface ReplyTap {
  head(status: number): void;
  observe(chunk: string | Uint8Array): void;
  /** The reply's last bytes and its end wait for this; a rejection is the tap's own business. */
  beforeEnd(): Promise<void>;
}

/**
 * Writes a reply to the client socket with backpressure: when the socket's buffer is full we
 * wait for `drain` instead of queueing without bound, so a slow reader cannot grow memory.
 * Remembers when the first byte went out (time to first token, and the point after which a
 * failure can no longer be retried on another channel).
 */
export class ClientWriter {
  firstByteAt: number | undefined;
  tap: ReplyTap | undefined;
  /** The client closed the connection before the reply ended (set only when `onClientGone` was given). */
  clientGone = false;
  #ending = false;

  /**
   * `onClientGone` is called once if the client closes the connection before the whole reply
   * was handed to the socket (the request's one AbortController is aborted from it).
   */
  constructor(
    readonly response: ReplyStream,
    private readonly now: () => number,
    onClientGone?: () => void,
  ) {
    if (onClientGone) {
      // `on`, not `once` (a response closes once; `once` wraps the listener in two more objects).
      response.on('close', () => {
        if (response.writableFinished || this.clientGone) return;
        this.clientGone = true;
        onClientGone();
      });
    }
  }

  get started(): boolean {
    return this.response.headersSent;
  }

  get closed(): boolean {
    return this.#ending || this.response.destroyed || this.response.writableEnded;
  }

  writeHead(status: number, headers: Record<string, string>): void {
    if (this.response.headersSent) return;
    this.tap?.head(status);
    this.response.writeHead(status, headers);
  }

  async write(text: string | Uint8Array): Promise<void> {
    if (text.length === 0 || this.closed) return;
    this.firstByteAt ??= this.now();
    this.tap?.observe(text);
    if (!this.response.write(text)) {
      await Promise.race([once(this.response, 'drain'), once(this.response, 'close')]);
    }
  }

  end(text?: string): void {
    if (this.closed) return;
    if (text) this.firstByteAt ??= this.now();
    const tap = this.tap;
    if (!tap) {
      this.response.end(text);
      return;
    }
    if (text) tap.observe(text);
    this.#ending = true;
    void tap
      .beforeEnd()
      .catch(() => undefined)
      .then(() => this.response.end(text));
  }
}
