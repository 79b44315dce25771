import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

/**
 * Writes a reply to the client socket with backpressure: when the socket's buffer is full we
 * wait for `drain` instead of queueing without bound, so a slow reader cannot grow memory.
 * Remembers when the first byte went out (time to first token, and the point after which a
 * failure can no longer be retried on another channel).
 */
export class ClientWriter {
  firstByteAt: number | undefined;

  constructor(
    readonly response: ServerResponse,
    private readonly now: () => number,
  ) {}

  get started(): boolean {
    return this.response.headersSent;
  }

  get closed(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }

  writeHead(status: number, headers: Record<string, string>): void {
    if (this.response.headersSent) return;
    this.response.writeHead(status, headers);
  }

  async write(text: string | Uint8Array): Promise<void> {
    if (text.length === 0 || this.closed) return;
    this.firstByteAt ??= this.now();
    if (!this.response.write(text)) {
      await Promise.race([once(this.response, 'drain'), once(this.response, 'close')]);
    }
  }

  end(text?: string): void {
    if (this.closed) return;
    if (text) this.firstByteAt ??= this.now();
    this.response.end(text);
  }
}
