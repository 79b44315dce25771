import type { ServerResponse } from 'node:http';
import type { SimulatorFault } from './simulator-script.ts';
import { writeFlushed } from './wait-unless-closed.ts';

export interface JsonReply {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Writes a whole JSON body. Mid-body faults apply here too: a reset after chunks cuts the body
 * short of its content-length, a stall sends headers only, truncated JSON is a short but
 * well-framed body the client cannot parse.
 */
export async function writeJsonReply(response: ServerResponse, reply: JsonReply, fault: SimulatorFault | undefined): Promise<void> {
  const text = JSON.stringify(reply.body);
  const headers = { ...reply.headers, 'content-type': 'application/json' };
  if (fault?.type === 'stall') {
    response.writeHead(reply.status, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
    response.flushHeaders();
    return;
  }
  if (fault?.type === 'reset' && (fault.afterChunks ?? 0) > 0) {
    response.writeHead(reply.status, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
    await writeFlushed(response, text.slice(0, Math.floor(text.length / 2)));
    response.socket?.destroy();
    return;
  }
  const sent = fault?.type === 'malformed' && fault.kind === 'truncated-json' ? text.slice(0, Math.floor(text.length / 2)) : text;
  response.writeHead(reply.status, { ...headers, 'content-length': String(Buffer.byteLength(sent)) });
  response.end(sent);
}
