import { Readable } from 'node:stream';
import { Agent, errors as undiciErrors } from 'undici';
import type { Dispatcher } from 'undici';
import { GatewayError } from '../../core/gateway-error.ts';
import type { MultipartBody } from './multipart-body.ts';
import { lookupPublicOnly, refusePrivateLiteral } from '../../upstream/private-upstream-address.ts';

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
  /** JSON text; ignored for GET and DELETE, and when `multipart` is given. */
  body: string;
  /** A multipart upload, streamed from its spool instead of `body`. */
  multipart?: MultipartBody;
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
  readonly #targets: UpstreamTargets;

  constructor(
    readonly timeouts: UpstreamTimeouts,
    /** BLOCK_PRIVATE_UPSTREAMS: refuse to connect to private, loopback and link-local addresses. */
    blockPrivateAddresses = false,
  ) {
    this.#targets = new UpstreamTargets(1_000, blockPrivateAddresses);
    this.#agent = new Agent({
      // The lookup checks the very addresses connected to, so a DNS rebind cannot slip past.
      connect: blockPrivateAddresses ? { timeout: timeouts.connectMs, lookup: lookupPublicOnly } : { timeout: timeouts.connectMs },
      headersTimeout: timeouts.firstByteMs,
      bodyTimeout: timeouts.idleMs,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
    });
  }

  async send(upstream: UpstreamRequest): Promise<UpstreamResponse> {
    try {
      const method = upstream.method ?? 'POST';
      // The agent's own request(), with the address split once per distinct URL: undici's
      // top-level request(url) parses the URL and copies the options on every call.
      const { origin, path } = this.#targets.split(upstream.url);
      return await this.#agent.request({
        origin,
        path,
        method,
        headers:
          method === 'POST'
            ? { ...contentHeaders(upstream.multipart), 'user-agent': 'switchyard/0.1', ...upstream.headers }
            : { 'user-agent': 'switchyard/0.1', ...upstream.headers },
        // As bytes: undici keeps the body it was given (on its handler) and, for a string, a Buffer
        // copy too (on its request), both until the reply ends; given a Buffer it keeps only that.
        ...(method === 'POST'
          ? { body: upstream.multipart === undefined ? Buffer.from(upstream.body) : Readable.from(upstream.multipart.stream(), { objectMode: false }) }
          : {}),
        signal: upstream.signal,
      });
    } catch (error) {
      throw toGatewayError(error);
    }
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

function contentHeaders(multipart: MultipartBody | undefined): Record<string, string> {
  return multipart === undefined ? JSON_CONTENT : { 'content-type': multipart.contentType, 'content-length': String(multipart.contentLength) };
}

const JSON_CONTENT = { 'content-type': 'application/json' };

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

/**
 * Origin and path of each upstream URL, as undici's `request(url)` derives them (WHATWG URL:
 * `origin`, `pathname` plus `search`; only http: and https:), kept per distinct URL. The URLs are
 * the channels' addresses with a model in the path, so there are few; the cache is emptied
 * whenever it reaches its bound.
 */
export class UpstreamTargets {
  readonly #split = new Map<string, { origin: string; path: string }>();

  constructor(
    private readonly bound = 1_000,
    /** Refuse hosts that are private IP literals (names are checked by the connection's lookup). */
    private readonly blockPrivateAddresses = false,
  ) {}

  split(url: string): { origin: string; path: string } {
    const known = this.#split.get(url);
    if (known) return known;
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new undiciErrors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
    }
    // Checked once per URL (the split is cached), so it costs nothing per request.
    if (this.blockPrivateAddresses) refusePrivateLiteral(parsed);
    const target = { origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname };
    if (this.#split.size >= this.bound) this.#split.clear();
    this.#split.set(url, target);
    return target;
  }
}
