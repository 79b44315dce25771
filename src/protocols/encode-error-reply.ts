import type { GatewayError } from '../core/gateway-error.ts';
import { getCodec } from './codec-registry.ts';
import type { ProtocolId } from './protocol-codec.ts';

/** A whole error reply, ready for any HTTP writer. */
export interface ErrorReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Statuses a retry of the same request cannot change (bad request, wrong or expired key, not
 * allowed, unknown model or route, too large, unprocessable). The Anthropic and OpenAI SDKs
 * (and so Claude Code and Codex) retry with back-off unless told otherwise: Claude Code given a
 * wrong key retried its 401 for minutes, printing nothing. `x-should-retry: false` is the header
 * both SDKs obey before their own status rules. 429 and 503 keep `retry-after` instead.
 */
const NOT_RETRYABLE_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 413, 422]);

/**
 * The one place a GatewayError becomes an HTTP reply in the caller's protocol: the codec's
 * error shape, `retry-after` when known, `x-should-retry: false` when a retry cannot help, and
 * the stable code in `x-switchyard-error-code` (Anthropic's error shape has no field for it, so
 * every protocol gets it there).
 */
export function encodeErrorReply(protocol: ProtocolId, error: GatewayError, requestId: string, options: { quoteRequestId?: boolean } = {}): ErrorReply {
  const { status, body } = getCodec(protocol).encodeError(error, options.quoteRequestId === false ? undefined : requestId);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': requestId,
    'x-switchyard-error-code': error.code,
  };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterSeconds));
  if (NOT_RETRYABLE_STATUSES.has(status)) headers['x-should-retry'] = 'false';
  return { status, headers, body: JSON.stringify(body) };
}
