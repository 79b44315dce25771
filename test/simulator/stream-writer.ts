import type { ServerResponse } from 'node:http';
import { waitUnlessClosed, writeFlushed } from './wait-unless-closed.ts';

/** What happens once the frames before the cut have been written. */
export type StreamTail = { kind: 'end'; extra?: string } | { kind: 'reset' } | { kind: 'stall' };

export interface StreamWrite {
  contentType: string;
  headers: Record<string, string>;
  frames: readonly string[];
  /** Frames are latin1-carried bytes (AWS event-stream), written as such. */
  binary?: boolean;
  /** How many frames to write before the tail. */
  cut: number;
  tail: StreamTail;
  chunkDelayMs: number;
}

export async function writeStream(response: ServerResponse, plan: StreamWrite): Promise<void> {
  response.writeHead(200, {
    ...plan.headers,
    'content-type': plan.contentType,
    'cache-control': 'no-cache',
  });
  const cut = Math.max(0, Math.min(plan.cut, plan.frames.length));
  const encoding: BufferEncoding = plan.binary ? 'latin1' : 'utf8';
  if (plan.chunkDelayMs <= 0) {
    // Fast path for load tests: one write, no timers.
    await writeFlushed(response, plan.frames.slice(0, cut).join(''), encoding);
  } else {
    response.flushHeaders();
    for (let index = 0; index < cut; index += 1) {
      if (index > 0 && !(await waitUnlessClosed(response, plan.chunkDelayMs))) return;
      await writeFlushed(response, plan.frames[index]!, encoding);
    }
    if (cut > 0 && plan.tail.kind !== 'end' && !(await waitUnlessClosed(response, plan.chunkDelayMs))) return;
  }
  if (response.destroyed) return;
  finish(response, plan.tail, encoding);
}

function finish(response: ServerResponse, tail: StreamTail, encoding: BufferEncoding): void {
  switch (tail.kind) {
    case 'end':
      response.end(tail.extra ?? '', encoding);
      return;
    case 'reset':
      response.socket?.destroy();
      return;
    case 'stall':
      // Headers and some frames are out; the rest never comes. The socket stays open until the
      // client gives up or the simulator closes.
      return;
    default: {
      const unreachable: never = tail;
      return unreachable;
    }
  }
}

/**
 * Cuts a frame's JSON in half but keeps the event terminator, so an SSE parser dispatches the
 * event and the client meets JSON it cannot parse (rather than a silently dropped partial event).
 */
export function truncateFrame(frame: string): string {
  const dataAt = frame.lastIndexOf('data: ');
  if (dataAt < 0) return frame.slice(0, Math.max(1, Math.floor(frame.length / 2)));
  const payloadStart = dataAt + 'data: '.length;
  const terminatorAt = frame.search(/\r?\n\r?\n$/);
  const payloadEnd = terminatorAt < 0 ? frame.length : terminatorAt;
  const keep = payloadStart + Math.max(1, Math.floor((payloadEnd - payloadStart) / 2));
  return `${frame.slice(0, keep)}${frame.slice(payloadEnd)}`;
}
