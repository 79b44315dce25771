import type { SseMessage } from './sse-message.ts';

const LF = 10;
const CR = 13;
const SPACE = 32;
const COLON = 58;

/**
 * An SSE parser with its state in fields: the events of each fed piece of text are appended to
 * the array given, as `{ data }` or `{ event, data }` (the fields the gateway reads).
 *
 * It reads exactly as `eventsource-parser` 3 does, which the relay used before (line endings
 * LF, CR or CRLF; `data` lines joined with LF; an empty `event` is no event; an event without
 * data is not dispatched; a UTF-8 BOM read as Latin-1 at the very start is dropped; `id`,
 * `retry`, comments and unknown fields are skipped, as the relay ignored them), and a
 * differential test holds it to that. It exists because that parser is nine closures and a
 * context per instance, and the relay keeps one per open stream.
 */
export class SseParser {
  #pending = '';
  #firstChunk = true;
  #data = '';
  #dataLines = 0;
  #eventType: string | undefined = undefined;

  feed(text: string, into: SseMessage[]): void {
    let chunk = text;
    if (this.#firstChunk) {
      this.#firstChunk = false;
      if (chunk.charCodeAt(0) === 239 && chunk.charCodeAt(1) === 187 && chunk.charCodeAt(2) === 191) chunk = chunk.slice(3);
    }
    if (this.#pending === '') {
      this.#pending = this.#processLines(chunk, into);
      return;
    }
    if (chunk.indexOf('\n') === -1 && chunk.indexOf('\r') === -1) {
      this.#pending += chunk;
      return;
    }
    this.#pending = this.#processLines(this.#pending + chunk, into);
  }

  /** Parses the complete lines; returns the unfinished tail. */
  #processLines(chunk: string, into: SseMessage[]): string {
    let searchIndex = 0;
    if (chunk.indexOf('\r') === -1) {
      let lfIndex = chunk.indexOf('\n', searchIndex);
      while (lfIndex !== -1) {
        if (searchIndex === lfIndex) {
          this.#dispatch(into);
          searchIndex = lfIndex + 1;
          lfIndex = chunk.indexOf('\n', searchIndex);
          continue;
        }
        const first = chunk.charCodeAt(searchIndex);
        if (isDataPrefix(chunk, searchIndex, first)) {
          const value = chunk.slice(chunk.charCodeAt(searchIndex + 5) === SPACE ? searchIndex + 6 : searchIndex + 5, lfIndex);
          if (this.#dataLines === 0 && chunk.charCodeAt(lfIndex + 1) === LF) {
            // A one-line event: dispatched without building up state.
            into.push(this.#eventType === undefined ? { data: value } : { event: this.#eventType, data: value });
            this.#data = '';
            this.#eventType = undefined;
            searchIndex = lfIndex + 2;
            lfIndex = chunk.indexOf('\n', searchIndex);
            continue;
          }
          this.#addData(value);
        } else if (isEventPrefix(chunk, searchIndex, first)) {
          this.#eventType = chunk.slice(chunk.charCodeAt(searchIndex + 6) === SPACE ? searchIndex + 7 : searchIndex + 6, lfIndex) || undefined;
        } else {
          this.#parseLine(chunk, searchIndex, lfIndex, into);
        }
        searchIndex = lfIndex + 1;
        lfIndex = chunk.indexOf('\n', searchIndex);
      }
      return chunk.slice(searchIndex);
    }
    while (searchIndex < chunk.length) {
      const crIndex = chunk.indexOf('\r', searchIndex);
      const lfIndex = chunk.indexOf('\n', searchIndex);
      let lineEnd = -1;
      if (crIndex !== -1 && lfIndex !== -1) lineEnd = crIndex < lfIndex ? crIndex : lfIndex;
      // A CR that ends the text may be the first half of a CRLF: wait for the next piece.
      else if (crIndex !== -1) lineEnd = crIndex === chunk.length - 1 ? -1 : crIndex;
      else if (lfIndex !== -1) lineEnd = lfIndex;
      if (lineEnd === -1) break;
      this.#parseLine(chunk, searchIndex, lineEnd, into);
      searchIndex = lineEnd + 1;
      if (chunk.charCodeAt(searchIndex - 1) === CR && chunk.charCodeAt(searchIndex) === LF) searchIndex += 1;
    }
    return chunk.slice(searchIndex);
  }

  #parseLine(chunk: string, start: number, end: number, into: SseMessage[]): void {
    if (start === end) {
      this.#dispatch(into);
      return;
    }
    const first = chunk.charCodeAt(start);
    if (isDataPrefix(chunk, start, first)) {
      this.#addData(chunk.slice(chunk.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end));
      return;
    }
    if (isEventPrefix(chunk, start, first)) {
      this.#eventType = chunk.slice(chunk.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end) || undefined;
      return;
    }
    // `id:` lines and comments: nothing the relay reads.
    if (first === 105 && chunk.charCodeAt(start + 1) === 100 && chunk.charCodeAt(start + 2) === COLON) return;
    if (first === COLON) return;
    const line = chunk.slice(start, end);
    const separator = line.indexOf(':');
    if (separator === -1) {
      if (line === 'data') this.#addData('');
      else if (line === 'event') this.#eventType = undefined;
      return;
    }
    const field = line.slice(0, separator);
    const value = line.slice(separator + (line.charCodeAt(separator + 1) === SPACE ? 2 : 1));
    if (field === 'data') this.#addData(value);
    else if (field === 'event') this.#eventType = value || undefined;
    // `id`, `retry` and unknown fields: skipped.
  }

  #addData(value: string): void {
    this.#data = this.#dataLines === 0 ? value : `${this.#data}\n${value}`;
    this.#dataLines += 1;
  }

  #dispatch(into: SseMessage[]): void {
    if (this.#dataLines > 0) into.push(this.#eventType === undefined ? { data: this.#data } : { event: this.#eventType, data: this.#data });
    this.#data = '';
    this.#dataLines = 0;
    this.#eventType = undefined;
  }
}

function isDataPrefix(chunk: string, index: number, first: number): boolean {
  return first === 100 && chunk.charCodeAt(index + 1) === 97 && chunk.charCodeAt(index + 2) === 116 && chunk.charCodeAt(index + 3) === 97 && chunk.charCodeAt(index + 4) === COLON;
}

function isEventPrefix(chunk: string, index: number, first: number): boolean {
  return (
    first === 101 &&
    chunk.charCodeAt(index + 1) === 118 &&
    chunk.charCodeAt(index + 2) === 101 &&
    chunk.charCodeAt(index + 3) === 110 &&
    chunk.charCodeAt(index + 4) === 116 &&
    chunk.charCodeAt(index + 5) === COLON
  );
}
