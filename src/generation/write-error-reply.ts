import type { GatewayError } from '../core/gateway-error.ts';
import { encodeErrorReply } from '../protocols/encode-error-reply.ts';
import type { ProtocolId } from '../protocols/protocol-codec.ts';
import type { ClientWriter } from '../relay/client-writer.ts';

/** Writes an error reply on a taken-over response, unless the reply already began. */
export function writeErrorReply(writer: ClientWriter, protocol: ProtocolId, error: GatewayError, requestId: string): void {
  if (writer.started || writer.closed) {
    if (!writer.closed) writer.end();
    return;
  }
  const { status, headers, body } = encodeErrorReply(protocol, error, requestId);
  writer.writeHead(status, headers);
  writer.end(body);
}
