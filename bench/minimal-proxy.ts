import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

/**
 * The Node ceiling baseline: node:http in, undici Pool out, the body parsed and re-serialised
 * (as any gateway that reads `model` must), the reply streamed back chunk by chunk with
 * backpressure. No auth, routing or logging: what is left is the cost of Node itself.
 */
const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, upstream: { type: 'string' } } });
const upstream = new Pool(values.upstream as string, { connections: 16_384, pipelining: 1, keepAliveTimeout: 120_000 });

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const abort = new AbortController();
      response.on('close', () => abort.abort());
      const reply = await upstream.request({
        method: 'POST',
        path: request.url ?? '/',
        headers: { 'content-type': 'application/json', authorization: request.headers.authorization ?? '' },
        body: JSON.stringify(body),
        signal: abort.signal,
      });
      response.writeHead(reply.statusCode, { 'content-type': String(reply.headers['content-type'] ?? 'application/json') });
      for await (const chunk of reply.body) {
        if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
      }
      response.end();
    } catch (error) {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: (error as Error).message } }));
    }
  });
});
server.keepAliveTimeout = 120_000;
// As large a queue for unaccepted connections as the gateway's LISTEN_BACKLOG (Node's default is 511).
server.listen({ port: Number(values.port), host: '127.0.0.1', backlog: 4_096 }, () => {
  const address = server.address();
  process.stdout.write(`listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
