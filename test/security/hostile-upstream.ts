import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface HostileReply {
  status?: number;
  headers?: Record<string, string>;
  /** A string or an object (sent as JSON). */
  body: unknown;
}

export interface HostileUpstream {
  /** `http://127.0.0.1:<port>`; OpenAI channels use `${url}/v1`. */
  url: string;
  requests: HostileRequest[];
  /** What to answer; the request decides (its model, its `n`, its text). */
  answer(handler: (request: HostileRequest, response: ServerResponse) => HostileReply | undefined): void;
  close(): Promise<void>;
}

/**
 * A fake upstream on loopback that answers whatever a test scripts: echoes of the credential,
 * error words a client put in a field name, negative or absurd usage, huge bodies. Unlike the
 * provider simulator it is meant to misbehave. A handler returning undefined has written the
 * response itself (streams, slow bodies).
 */
export async function startHostileUpstream(): Promise<HostileUpstream> {
  let handler: (request: HostileRequest, response: ServerResponse) => HostileReply | undefined = () => ({ status: 500, body: 'no handler' });
  const requests: HostileRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      const received = { url: request.url ?? '', headers: request.headers, body };
      requests.push(received);
      const reply = handler(received, response);
      if (!reply) return;
      const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An OpenAI chat completion with the given usage. */
export function chatCompletion(model: string, usage: { prompt: number; completion: number }, text = 'ok', choices = 1): unknown {
  return {
    id: 'chatcmpl-hostile',
    object: 'chat.completion',
    created: 1,
    model,
    choices: Array.from({ length: choices }, (_, index) => ({ index, message: { role: 'assistant', content: text }, finish_reason: 'stop' })),
    usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
  };
}

/** Writes a JSON reply after `delayMs`, so parallel requests overlap at the upstream. */
export function replyLater(response: ServerResponse, delayMs: number, status: number, body: unknown): undefined {
  setTimeout(() => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  }, delayMs);
  return undefined;
}
