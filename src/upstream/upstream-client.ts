import { Agent, request, errors as undiciErrors } from 'undici';
import type { Dispatcher } from 'undici';
import { GatewayError } from '../core/gateway-error.ts';

export interface UpstreamTimeouts {
  connectMs: number;
  /** Until the response headers arrive (time to first byte). */
  firstByteMs: number;
  /** Longest silence between two body chunks (a stalled stream). */
  idleMs: number;
}

export interface UpstreamRequest {
  /** Default POST (generation); GET and DELETE read and delete stored Responses. */
  method?: 'POST' | 'GET' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** Ignored for GET and DELETE. */
  body: string;
  signal: AbortSignal;
}

export type UpstreamResponse = Dispatcher.ResponseData;

/**
 * The pooled, keep-alive HTTP client for every upstream call. One undici Agent per process:
 * connections are reused across requests, unlimited per origin (a cap silently queues long
 * streams behind each other), and every timeout is explicit.
 */
export class UpstreamClient {
  readonly #agent: Agent;

  constructor(readonly timeouts: UpstreamTimeouts) {
    this.#agent = new Agent({
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.firstByteMs,
      bodyTimeout: timeouts.idleMs,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
    });
  }

  async send(upstream: UpstreamRequest): Promise<UpstreamResponse> {
    try {
      const method = upstream.method ?? 'POST';
      return await request(upstream.url, {
        method,
        headers: method === 'POST' ? { 'content-type': 'application/json', 'user-agent': 'switchyard/0.1', ...upstream.headers } : { 'user-agent': 'switchyard/0.1', ...upstream.headers },
        ...(method === 'POST' ? { body: upstream.body } : {}),
        signal: upstream.signal,
        dispatcher: this.#agent,
      });
    } catch (error) {
      throw toGatewayError(error);
    }
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/** Turns a transport failure into the catalog error the retry policy understands. */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.ConnectTimeoutError) {
    return new GatewayError('upstream_timeout', 'The upstream did not answer in time.', { cause: error });
  }
  if (error instanceof undiciErrors.BodyTimeoutError) {
    return new GatewayError('stream_idle_timeout', 'The upstream stopped sending data mid-reply.', { cause: error });
  }
  if (error instanceof undiciErrors.RequestAbortedError || (error as Error)?.name === 'AbortError') {
    return new GatewayError('upstream_timeout', 'The upstream request was aborted.', { cause: error });
  }
  const code = (error as { code?: string })?.code ?? 'unknown';
  return new GatewayError('upstream_unreachable', `Could not reach the upstream (${code}).`, { cause: error });
}
