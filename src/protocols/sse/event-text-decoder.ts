/** A stream's first decode drops a leading BOM, as a streaming TextDecoder's does; later ones keep U+FEFF. */
const FIRST = new TextDecoder();
const LATER = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Decodes an upstream SSE stream's text without a TextDecoder of its own: in stream mode each
 * one holds a native ICU converter (~0.6 KB of RSS outside the JS heap), for as long as its
 * stream is open. The relay decodes whole events, which end at a blank line and so never inside
 * a character: two shared decoders give what a streaming one would, and only the stream's last
 * bytes (which may end mid-character) get a streaming decoder, in the same state.
 */
export class EventTextDecoder {
  #started = false;

  /** Bytes that end at an event boundary (non-empty). */
  decode(bytes: Uint8Array): string {
    const decoder = this.#started ? LATER : FIRST;
    this.#started = true;
    return decoder.decode(bytes);
  }

  /** The stream's last bytes: an unfinished character at their end is held back, as a streaming decoder would. */
  decodeTail(bytes: Uint8Array): string {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: this.#started });
    this.#started = true;
    return decoder.decode(bytes, { stream: true });
  }
}
