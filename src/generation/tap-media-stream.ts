import type { SseMessage } from '../sse/sse-message.ts';
import { parseSseStream } from '../sse/parse-sse-stream.ts';
import type { SseLimits } from '../sse/sse-limits.ts';

/**
 * Passes a streamed media reply (image events over SSE) to the client byte for byte while its
 * events are read for the bill; `onEnd` runs once, when the stream ends, fails or the client goes
 * away, so what was delivered up to then is settled and recorded.
 */
export async function* tapMediaStream(
  stream: AsyncIterable<Uint8Array>,
  limits: SseLimits,
  onEvent: (message: SseMessage) => void,
  onEnd: () => Promise<void>,
): AsyncGenerator<Uint8Array> {
  const parser = parseSseStream(limits, onEvent);
  try {
    for await (const chunk of stream) {
      if (parser.push(chunk) === undefined) throw parser.failure;
      yield chunk;
    }
    parser.end();
  } finally {
    await onEnd();
  }
}
