import type { FastifyReply } from 'fastify';
import type { GatewayError } from '../core/gateway-error.ts';
import { encodeErrorReply } from '../protocols/encode-error-reply.ts';
import type { ProtocolId } from '../protocols/protocol-codec.ts';

/** Sends a GatewayError through Fastify in the caller's own protocol shape (see `encodeErrorReply`). */
export function renderError(
  reply: FastifyReply,
  protocol: ProtocolId,
  error: GatewayError,
  requestId: string,
  options: { quoteRequestId?: boolean } = {},
): FastifyReply {
  const { status, headers, body } = encodeErrorReply(protocol, error, requestId, options);
  return reply.code(status).headers(headers).send(body);
}
