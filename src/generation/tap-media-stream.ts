import { Readable } from 'node:stream';
import type { SseMessage } from '../protocols/sse/sse-message.ts';
import { parseSseStream } from '../protocols/sse/parse-sse-stream.ts';
import type { SseLimits } from '../protocols/sse/sse-limits.ts';

/**
 * Passes a streamed media reply (image events over SSE) to the client byte for byte while its
 * events are read for the bill; `onEnd` runs exactly once, when the stream ends, fails, or is
 * destroyed — also when it is destroyed before its first byte was read (the client went away
 * between the upstream's answer and the first write), which an async generator alone would miss:
 * a generator that never started runs no `finally`, and the hold would wait for its expiry. The
 * upstream body is ended with it.
 */
export function tapMediaStream(
  stream: AsyncIterable<Uint8Array>,
  limits: SseLimits,
  onEvent: (message: SseMessage) => void,
  onEnd: () => Promise<void>,
): Readable {
  let ended: Promise<void> | undefined;
  const endOnce = (): Promise<void> => {
    // A settle that fails is the ledger's to log; it must not become an unhandled rejection here.
    ended ??= onEnd().catch(() => undefined);
    return ended;
  };
  const parser = parseSseStream(limits, onEvent);
  const upstream = stream[Symbol.asyncIterator]();
  return new Readable({
    read() {
      upstream.next().then(
        ({ value, done }) => {
          if (done) {
            parser.end();
            this.push(null);
          } else if (parser.push(value) === undefined) this.destroy(parser.failure);
          else this.push(value);
        },
        (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    },
    // Runs on the end (autoDestroy), a failure, or the client going away, read or not.
    destroy(error, callback) {
      if (stream instanceof Readable) stream.destroy();
      else void upstream.return?.();
      void endOnce().then(() => callback(error));
    },
  });
}
