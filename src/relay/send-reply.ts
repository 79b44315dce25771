import { GatewayError } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Usage } from '../core/usage.ts';
import type { ChatResponse } from '../core/chat-response.ts';
import type { ProtocolCodec, StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import { toGatewayError, type UpstreamResponse } from '../upstream/upstream-client.ts';
import type { ClientWriter } from './client-writer.ts';

export interface SendReplyInput {
  response: UpstreamResponse;
  passthrough: boolean;
  clientCodec: ProtocolCodec;
  upstreamCodec: ProtocolCodec;
  runtime: RuntimeContext;
  writer: ClientWriter;
  headers: Record<string, string>;
  /** What the client asked of the reply (custom tools, …), as for its stream encoder. */
  encoderOptions?: StreamEncoderOptions;
  /** Translated lane only: rewrites the decoded reply before it is encoded (reasoning sealing). */
  transformResponse?: (response: ChatResponse) => ChatResponse;
}

export interface ReplyOutcome {
  usage: Usage | undefined;
  error: GatewayError | undefined;
}

/**
 * A non-streamed reply. Passthrough sends the upstream's bytes unchanged and reads only its
 * usage; the translated lane decodes the reply and encodes it for the client.
 */
export async function sendReply(input: SendReplyInput): Promise<ReplyOutcome> {
  let text: string;
  try {
    text = await input.response.body.text();
  } catch (error) {
    return { usage: undefined, error: toGatewayError(error) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      usage: undefined,
      error: new GatewayError('upstream_invalid_response', 'The upstream sent a reply that is not valid JSON.'),
    };
  }

  if (input.passthrough) {
    let usage: Usage | undefined;
    try {
      usage = input.upstreamCodec.decodeResponse(parsed, input.runtime).value.usage;
    } catch {
      // Unusual but valid for the client: forward it anyway; usage stays unknown.
    }
    input.writer.writeHead(200, input.headers);
    input.writer.end(text);
    return { usage, error: undefined };
  }

  try {
    const decoded = input.upstreamCodec.decodeResponse(parsed, input.runtime).value;
    const body = input.clientCodec.encodeResponse(input.transformResponse ? input.transformResponse(decoded) : decoded, input.runtime, input.encoderOptions);
    input.writer.writeHead(200, input.headers);
    input.writer.end(JSON.stringify(body));
    return { usage: decoded.usage, error: undefined };
  } catch (error) {
    return { usage: undefined, error: toGatewayError(error) };
  }
}
