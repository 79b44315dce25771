import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { ClientWriter } from '../../src/relay/client-writer.ts';
import type { UpstreamResponse } from '../../src/relay/channels/upstream-client.ts';

/** A ServerResponse stand-in that records what the relay wrote, for unit tests of the relay core. */
export class FakeClientResponse extends EventEmitter {
  headersSent = false;
  destroyed = false;
  writableEnded = false;
  status: number | undefined;
  headers: Record<string, string> = {};
  readonly pieces: string[] = [];

  writeHead(status: number, headers: Record<string, string>): this {
    this.status = status;
    this.headers = headers;
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Uint8Array): boolean {
    this.headersSent = true;
    this.pieces.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }

  end(chunk?: string): this {
    this.headersSent = true;
    if (chunk) this.pieces.push(chunk);
    this.writableEnded = true;
    return this;
  }

  get text(): string {
    return this.pieces.join('');
  }
}

export function fakeClient(now: () => number = () => 0): { response: FakeClientResponse; writer: ClientWriter } {
  const response = new FakeClientResponse();
  return { response, writer: new ClientWriter(response as unknown as ServerResponse, now) };
}

/** An upstream reply: a JSON body, or a stream whose chunks arrive one by one (optionally after a pause). */
export function fakeUpstreamResponse(
  statusCode: number,
  body: string | { chunks: readonly string[]; pauseMs?: number },
  headers: Record<string, string> = {},
): UpstreamResponse {
  const chunks = typeof body === 'string' ? [body] : body.chunks;
  const pauseMs = typeof body === 'string' ? 0 : (body.pauseMs ?? 0);
  return {
    statusCode,
    headers,
    body: {
      text: async () => chunks.join(''),
      async *[Symbol.asyncIterator]() {
        for (const chunk of chunks) {
          if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
          yield Buffer.from(chunk);
        }
      },
    },
  } as unknown as UpstreamResponse;
}

/** An async iterator over the given chunks, for feeding pipeStream directly. */
export function chunksOf(chunks: readonly string[], pauseMs = 0): AsyncIterator<Uint8Array> {
  return (async function* () {
    for (const chunk of chunks) {
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      yield Buffer.from(chunk);
    }
  })();
}
