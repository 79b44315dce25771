import type { FastifyReply } from 'fastify';
import type { GatewayError } from '../core/gateway-error.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { ProtocolId } from '../protocols/protocol-codec.ts';

/** Sends a GatewayError in the caller's own protocol shape, with `retry-after` when known and the stable code in `x-switchyard-error-code`. */
export function renderError(reply: FastifyReply, protocol: ProtocolId, error: GatewayError, requestId: string): FastifyReply {
  const { status, body } = getCodec(protocol).encodeError(error, requestId);
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.ceil(error.retryAfterSeconds)));
  // Anthropic's error shape has no field for it, so every protocol also gets the code here.
  reply.header('x-switchyard-error-code', error.code);
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
}
