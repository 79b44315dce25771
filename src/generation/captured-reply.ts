import { Writable } from 'node:stream';
import type { ReplyStream } from '../relay/client-writer.ts';

/**
 * A reply the pipeline writes into memory instead of to a client: the gateway's own generation
 * requests (the summary of `POST /v1/responses/compact`) run through `runGeneration` like any
 * other and are read back here. Bounded by the relay's reply limits (MAX_UPSTREAM_REPLY_BYTES).
 */
export class CapturedReply extends Writable implements ReplyStream {
  headersSent = false;
  status = 200;
  readonly #chunks: Buffer[] = [];

  constructor() {
    super({ decodeStrings: true });
  }

  writeHead(status: number, _headers: Record<string, string>): this {
    if (!this.headersSent) {
      this.headersSent = true;
      this.status = status;
    }
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.#chunks.push(chunk);
    callback();
  }

  /** The reply body as text (complete once the stream finished). */
  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}
