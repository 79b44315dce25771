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
 * The one place a GatewayError becomes an HTTP reply in the caller's protocol: the codec's
 * error shape, `retry-after` when known, and the stable code in `x-switchyard-error-code`
 * (Anthropic's error shape has no field for it, so every protocol gets it there).
 */
export function encodeErrorReply(protocol: ProtocolId, error: GatewayError, requestId: string): ErrorReply {
  const { status, body } = getCodec(protocol).encodeError(error, requestId);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': requestId,
    'x-switchyard-error-code': error.code,
  };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterSeconds));
  return { status, headers, body: JSON.stringify(body) };
}
