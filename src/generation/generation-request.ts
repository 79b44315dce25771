import type { CallerCredentials } from '../access/authenticate-caller.ts';
import type { Caller } from '../access/authenticate-key.ts';
import type { CredentialStyle } from '../access/extract-api-key.ts';
import { credentialStyleOf } from '../protocols/codec-registry.ts';
import type { ProtocolId, StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import type { ServerResponse } from 'node:http';
import { ClientWriter } from '../relay/client-writer.ts';

/** Which client surface a request came in on. */
export interface GenerationRoute {
  protocol: ProtocolId;
  credentials: CredentialStyle;
  /** The path prefix surface (`antigravity`) or null for the root surfaces. */
  surface: string | null;
  /** Warnings every request on this route carries (a mistaken address still served), on the reply and the usage row. */
  warnings?: readonly string[];
}

/**
 * The route of one client protocol on one surface. The key is read where the protocol's clients
 * put it (the codec's `credentials`), on the alternative-client prefix too: its clients speak
 * each protocol as its own clients do.
 */
export function generationRoute(protocol: ProtocolId, surface: string | null): GenerationRoute {
  return { protocol, credentials: credentialStyleOf(protocol), surface };
}

/** One generation request as any web framework received it. */
export interface GenerationRequest {
  requestId: string;
  route: GenerationRoute;
  /** The parsed JSON body, and its text as received (the passthrough lane forwards it). */
  body: unknown;
  rawBody?: string;
  /** Gemini names the model and the streaming choice in the path. */
  pathModel?: string;
  pathStream?: boolean;
  /** The client's stream framing (Gemini: `alt=sse` or a JSON array). */
  encoderOptions?: StreamEncoderOptions;
  credentials: CallerCredentials;
  /**
   * The caller, when the framework authenticated the key from the headers before reading the
   * body (so a request without a valid key never has its body read or parsed).
   */
  caller?: Caller;
  /** How the request arrived; absent: an HTTP request. A Responses WebSocket turn says `websocket`. */
  transport?: 'websocket';
}

/** The reply, taken over from the web framework once the request is admitted. */
export interface ClientConnection {
  /**
   * From here on the pipeline writes the reply; errors thrown before this are the framework's to
   * render. `onClientGone` is called if the client leaves before the reply ended.
   */
  takeOver(onClientGone: () => void): ClientWriter;
}

/**
 * The connection of a Node HTTP server's reply: `takeOver` tells the framework to let go of it
 * (`release`: Fastify's `reply.hijack`, bound to its reply) and hands the pipeline a writer over
 * the raw response. The pipeline calls no code of the framework's adapter to take the reply.
 */
export class NodeReplyConnection implements ClientConnection {
  constructor(
    private readonly response: ServerResponse,
    private readonly release: () => unknown,
    private readonly now: () => number,
  ) {}

  takeOver(onClientGone: () => void): ClientWriter {
    this.release();
    return new ClientWriter(this.response, this.now, onClientGone);
  }
}
