import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedReply {
  status: number;
  format: 'json' | 'sse';
  body: string;
}

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
 * gateway sent. It knows nothing of any protocol: the golden files carry all the meaning.
 */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  let reply: ScriptedReply | undefined;
  let last: CapturedRequest | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      last = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      if (!reply) {
        response.writeHead(500, { 'content-type': 'text/plain' }).end('no reply scripted');
        return;
      }
      const headers: Record<string, string> = {
        'content-type': reply.format === 'sse' ? 'text/event-stream' : 'application/json',
      };
      if (reply.status === 429) headers['retry-after'] = '7';
      response.writeHead(reply.status, headers).end(reply.body);
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
