import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CannedReply {
  status?: number;
  contentType: string;
  body: string;
}

/**
 * A local HTTP server that answers every request with fixed bytes, so the official SDKs can
 * be pointed at an encoder's exact output. Records request bodies for assertions.
 */
export async function serveCannedReply(reply: CannedReply): Promise<{ baseURL: string; requests: unknown[]; close(): Promise<void> }> {
  const requests: unknown[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      requests.push(raw === '' ? undefined : JSON.parse(raw));
      response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType, 'x-should-retry': 'false' });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
