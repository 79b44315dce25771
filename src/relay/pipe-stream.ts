import type { GatewayError } from '../core/gateway-error.ts';
import { toGatewayError } from './channels/upstream-client.ts';
import { PassthroughLane } from './passthrough-stream-lane.ts';
import type { Lane, PipeStreamInput, StreamOutcome } from './stream-lane.ts';
import { TranslatedLane } from './translated-stream-lane.ts';

/**
 * Moves an upstream SSE stream to the client one upstream chunk at a time, never holding more.
 * Passthrough forwards the upstream's bytes untouched, cut at event boundaries, and taps usage;
 * the translated lane decodes to canonical events and re-encodes them for the client. Either
 * way, a stream that fails or ends early ends with the client protocol's own in-stream error.
 */
export async function pipeStream(input: PipeStreamInput): Promise<StreamOutcome> {
  const lane: Lane = input.passthrough ? new PassthroughLane(input) : new TranslatedLane(input);
  // Read when the watcher asks (every few seconds), not pushed per chunk.
  input.watch?.(() => lane.outcome(undefined));
  const keepAlive = input.clientCodec.passthrough.keepAliveFrame;
  const timer = keepAlive
    ? setTimeout(function ping() {
        void input.writer.write(keepAlive);
        timer?.refresh();
      }, input.keepAliveMs)
    : undefined;
  timer?.unref();

  let failure: GatewayError | undefined;
  // Only the chunk in hand is held: the input's first chunk, and each chunk and its output once
  // written, are dropped before waiting for the next one (a suspended async function keeps
  // whatever its locals last pointed at, for as long as the upstream stays silent).
  let chunk: Uint8Array | undefined = input.firstChunk;
  input.firstChunk = EMPTY_CHUNK;
  let out: string | Uint8Array = '';
  let next: IteratorResult<Uint8Array> | undefined;
  try {
    while (chunk !== undefined && !input.writer.closed) {
      timer?.refresh();
      out = lane.push(chunk);
      chunk = undefined;
      if (out.length > 0) await input.writer.write(out);
      out = '';
      if (lane.failed) {
        input.abortUpstream();
        break;
      }
      next = await input.rest.next();
      chunk = next.done ? undefined : next.value;
      next = undefined;
    }
  } catch (error) {
    failure = toGatewayError(error);
  } finally {
    if (timer) clearTimeout(timer);
  }
  if (!input.writer.closed) input.writer.end(failure ? lane.fail(failure) : lane.end());
  return lane.outcome(failure);
}

const EMPTY_CHUNK = new Uint8Array(0);
