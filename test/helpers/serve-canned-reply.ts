import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CannedRequest {
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
  /** The parsed JSON body, or undefined when the request had none. */
  body: unknown;
}

export interface CannedReply {
  status?: number;
  contentType: string;
  headers?: Record<string, string>;
  /** A list is written one piece per write, so a client sees frames split across reads as from the relay. */
  body: string | readonly string[];
}

export interface CannedServer {
  /** `http://127.0.0.1:<port>`, with no path: each SDK adds its own version segment. */
  url: string;
  requests: CannedRequest[];
  close(): Promise<void>;
}

async function readRequest(request: IncomingMessage): Promise<CannedRequest> {
  let raw = '';
  for await (const chunk of request) raw += String(chunk);
  return { method: request.method ?? '', url: request.url ?? '', body: raw === '' ? undefined : JSON.parse(raw) };
}

/**
 * A local HTTP server that answers with fixed bytes, so an official SDK can be pointed at an
 * encoder's exact output. Pass one reply for every request, or a function that picks it from
 * the request. Records every request for assertions.
 */
export async function serveCannedReply(source: CannedReply | ((request: CannedRequest) => CannedReply)): Promise<CannedServer> {
  const requests: CannedRequest[] = [];
  const server = createServer((request, response) => {
    readRequest(request)
      .then((received) => {
        requests.push(received);
        const reply = typeof source === 'function' ? source(received) : source;
        // Belt and braces with maxRetries: 0: a retried error status would hide what the encoder wrote.
        response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType, 'x-should-retry': 'false', ...reply.headers });
        const pieces = typeof reply.body === 'string' ? [reply.body] : reply.body;
        for (const piece of pieces) if (piece !== '') response.write(piece);
        response.end();
      })
      .catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** Serves the reply for the length of `run`, then closes the server whatever `run` did. */
export async function withCannedReply<T>(
  source: CannedReply | ((request: CannedRequest) => CannedReply),
  run: (server: CannedServer) => Promise<T>,
): Promise<T> {
  const server = await serveCannedReply(source);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}
