import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedFormat } from './cases/recorded-reply.ts';

export interface CapturedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Set when `check` refused the request: what was sent instead of the recorded reply. */
  refusal?: RefusalReply;
}

export interface ScriptedReply {
  status: number;
  format: RecordedFormat;
  /** The exact bytes to send (event-stream frames are binary). */
  body: Buffer;
  /** Headers beside the content type (a cloud's error type, a retry-after). */
  headers?: Record<string, string>;
  /**
   * Checks the request the way the real upstream would before answering; a refusal is sent
   * instead of the recorded reply, so a request the upstream would reject fails the case.
   */
  check?: (request: CapturedRequest) => RefusalReply | undefined;
}

export interface RefusalReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const CONTENT_TYPES: Record<RecordedFormat, string> = {
  json: 'application/json',
  sse: 'text/event-stream',
  eventstream: 'application/vnd.amazon.eventstream',
};

export interface FakeUpstream {
  url: string;
  /** The reply for the next request (one at a time; the golden runner is sequential). */
  answerWith(reply: ScriptedReply): void;
  /** What the gateway sent for the last request, or undefined when nothing arrived. */
  takeLastRequest(): CapturedRequest | undefined;
  close(): Promise<void>;
}

/**
 * A tiny upstream that replays a recorded reply byte for byte and keeps the request the
 * gateway sent. It knows nothing of any protocol: the golden files and the runner's `check`
 * carry all the meaning.
 */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  let reply: ScriptedReply | undefined;
  let last: CapturedRequest | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const captured: CapturedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      last = captured;
      if (!reply) {
        response.writeHead(500, { 'content-type': 'text/plain' }).end('no reply scripted');
        return;
      }
      const refusal = reply.check?.(captured);
      if (refusal) {
        captured.refusal = refusal;
        response.writeHead(refusal.status, refusal.headers).end(refusal.body);
        return;
      }
      response.writeHead(reply.status, { 'content-type': CONTENT_TYPES[reply.format], ...reply.headers }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answerWith(next) {
      reply = next;
      last = undefined;
    },
    takeLastRequest() {
      const taken = last;
      last = undefined;
      return taken;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
