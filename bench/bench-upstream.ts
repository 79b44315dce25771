import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { profileOf, replyBody, streamFrames, type Dialect, type StreamFrames } from './upstream-payloads.ts';

/**
 * The load upstream of the bench: OpenAI chat, Anthropic messages and Gemini generateContent,
 * replies pre-serialised and cached per model, no request recording, no validation beyond
 * finding the model. test/simulator is the faithful one; this one is the fast one.
 */
export function createBenchUpstream(): Server {
  const replies = new Map<string, string>();
  const streams = new Map<string, StreamFrames>();
  const cached = <T>(cache: Map<string, T>, key: string, make: () => T): T => {
    let value = cache.get(key);
    if (value === undefined) {
      value = make();
      cache.set(key, value);
    }
    return value;
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const route = routeOf(request, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
      if (!route) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such route"}}');
        return;
      }
      const profile = profileOf(route.model);
      if (!route.stream) {
        const body = cached(replies, `${route.dialect} ${route.model}`, () => replyBody(route.dialect, route.model));
        const send = () => response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
        if (profile.delayMs > 0) setTimeout(send, profile.delayMs);
        else send();
        return;
      }
      const frames = cached(streams, `${route.dialect} ${route.model} ${route.jsonArray}`, () => streamFrames(route.dialect, route.model, route.jsonArray));
      const start = () => writeStream(response, frames, profile.gapMs);
      if (profile.delayMs > 0) setTimeout(start, profile.delayMs);
      else start();
    });
  });
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 130_000;
  server.requestTimeout = 0;
  return server;
}

interface Route {
  dialect: Dialect;
  model: string;
  stream: boolean;
  jsonArray: boolean;
}

const MODEL = /"model"\s*:\s*"([^"]*)"/;
const STREAM = /"stream"\s*:\s*true/;

function routeOf(request: IncomingMessage, body: Buffer): Route | undefined {
  const url = request.url ?? '';
  if (url.endsWith('/chat/completions') || url.endsWith('/messages')) {
    // Only the head of the body is searched: the model and stream flag come first in every
    // client we drive, and a 50 KB prompt should not cost the upstream a full scan.
    const head = body.toString('latin1', 0, Math.min(body.length, 512));
    const tail = body.length > 512 ? body.toString('latin1', body.length - 512) : '';
    const model = MODEL.exec(head)?.[1] ?? MODEL.exec(tail)?.[1] ?? MODEL.exec(body.toString('latin1'))?.[1] ?? 'unknown-s0';
    const stream = STREAM.test(head) || STREAM.test(tail) || (body.length > 1024 && STREAM.test(body.toString('latin1')));
    return { dialect: url.endsWith('/messages') ? 'anthropic' : 'openai', model, stream, jsonArray: false };
  }
  const gemini = /\/models\/([^/:?]+):(generateContent|streamGenerateContent)(\?.*)?$/.exec(url);
  if (gemini) {
    const stream = gemini[2] === 'streamGenerateContent';
    return { dialect: 'gemini', model: decodeURIComponent(gemini[1] as string), stream, jsonArray: stream && !/[?&]alt=sse/.test(url) };
  }
  return undefined;
}

function writeStream(response: ServerResponse, frames: StreamFrames, gapMs: number): void {
  response.writeHead(200, {
    'content-type': frames.head === '[' ? 'application/json' : 'text/event-stream',
    'cache-control': 'no-cache',
  });
  if (gapMs === 0) {
    // Back to back, one write per frame, as a fast upstream would.
    if (frames.head) response.write(frames.head);
    for (const frame of frames.deltas) response.write(frame);
    response.end(frames.tail);
    return;
  }
  let index = 0;
  let closed = false;
  response.on('close', () => {
    closed = true;
  });
  const next = () => {
    if (closed) return;
    const frame = frames.deltas[index++] as string;
    if (index >= frames.deltas.length) {
      response.end(frame + frames.tail);
      return;
    }
    response.write(frame);
    setTimeout(next, gapMs);
  };
  if (frames.head) response.write(frames.head);
  next();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
  const server = createBenchUpstream();
  // The kernel's queue for connections not yet accepted, as large as the gateway's (LISTEN_BACKLOG):
  // the whole-box run opens thousands at once, and Node's default of 511 would drop SYNs here.
  server.listen({ port: Number(values.port), host: '127.0.0.1', backlog: 4_096 }, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    process.stdout.write(`listening http://127.0.0.1:${port}\n`);
  });
}
