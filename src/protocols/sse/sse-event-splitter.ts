import type { GatewayError } from '../../core/gateway-error.ts';
import { eventTooLarge, replyTooLarge, type SseLimits } from './sse-limits.ts';

const NEWLINE = 10;
const RETURN = 13;

/**
 * Cuts an upstream SSE byte stream at event boundaries (a blank line: `\n\n`, which also ends
 * `\r\n\r\n`), so only whole events go on. Each byte is searched once: a chunk is scanned
 * backwards for its last boundary, and the bytes after it wait, unscanned again, for the chunk
 * that completes them (the old search re-read the whole pending tail on every chunk, so a
 * 64 MB line without a newline cost quadratic time). Holds at most one event: a pending event
 * past `maxEventBytes`, or a reply past `maxReplyBytes`, is a failure.
 */
export class SseEventSplitter {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #totalBytes = 0;
  /** The last two bytes before the current chunk, for a boundary that straddles two chunks. */
  #before1 = -1;
  #before2 = -1;
  failure: GatewayError | undefined;

  constructor(private readonly limits: SseLimits) {}

  /** The whole events this chunk completes (possibly empty), or undefined once a limit is passed. */
  push(chunk: Uint8Array): Uint8Array | undefined {
    if (this.failure) return undefined;
    this.#totalBytes += chunk.length;
    if (this.#totalBytes > this.limits.maxReplyBytes) {
      this.failure = replyTooLarge(this.limits.maxReplyBytes);
      return undefined;
    }
    const boundary = this.#lastBoundary(chunk);
    this.#remember(chunk);
    if (boundary === 0) {
      this.#hold(chunk);
      return this.failure ? undefined : EMPTY;
    }
    const complete = this.#take(chunk.subarray(0, boundary));
    if (boundary < chunk.length) this.#hold(chunk.subarray(boundary));
    return this.failure ? undefined : complete;
  }

  /** Whatever is still pending when the upstream ends (its last event, if it did not end it with a blank line). */
  rest(): Uint8Array | undefined {
    if (this.#pendingBytes === 0) return undefined;
    return this.#take(EMPTY);
  }

  #hold(bytes: Uint8Array): void {
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
    if (this.#pendingBytes > this.limits.maxEventBytes) this.failure = eventTooLarge(this.limits.maxEventBytes);
  }

  #take(last: Uint8Array): Uint8Array {
    if (this.#pending.length === 0) return last;
    const joined = new Uint8Array(this.#pendingBytes + last.length);
    let offset = 0;
    for (const piece of this.#pending) {
      joined.set(piece, offset);
      offset += piece.length;
    }
    joined.set(last, offset);
    this.#pending = [];
    this.#pendingBytes = 0;
    return joined;
  }

  /** Index just past the chunk's last blank line, or 0 when it completes none. */
  #lastBoundary(chunk: Uint8Array): number {
    const at = (index: number): number => (index >= 0 ? (chunk[index] as number) : index === -1 ? this.#before1 : this.#before2);
    for (let index = chunk.length - 1; index >= 0; index -= 1) {
      if (chunk[index] !== NEWLINE) continue;
      const previous = at(index - 1);
      if (previous === NEWLINE) return index + 1;
      if (previous === RETURN && at(index - 2) === NEWLINE) return index + 1;
    }
    return 0;
  }

  #remember(chunk: Uint8Array): void {
    if (chunk.length >= 2) {
      this.#before2 = chunk[chunk.length - 2] as number;
      this.#before1 = chunk[chunk.length - 1] as number;
    } else if (chunk.length === 1) {
      this.#before2 = this.#before1;
      this.#before1 = chunk[0] as number;
    }
  }
}

const EMPTY = new Uint8Array(0);
