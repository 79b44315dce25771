import { GatewayError } from '../../core/gateway-error.ts';
import type { Usage } from '../../core/usage.ts';
import type { ProtocolCodec } from '../protocol-codec.ts';
import { takeClaudeReasoningState } from '../shared/take-reasoning-state.ts';
import { enforceConverseThinking } from '../shared/enforce-anthropic-thinking.ts';
import { isRecord } from '../shared/is-record.ts';
import { createBedrockStreamDecoder } from './create-bedrock-stream-decoder.ts';
import { decodeBedrockResponse, decodeBedrockUsage } from './decode-bedrock-response.ts';
import { encodeBedrockRequest } from './encode-bedrock-request.ts';

/**
 * Switchyard has no Converse client surface (no client sends this wire format to the gateway),
 * so the client-side directions are refused plainly rather than half-implemented.
 */
function upstreamOnly(): never {
  throw new GatewayError('internal_error', 'Bedrock Converse is an upstream wire format only; no client surface speaks it.');
}

/** AWS Bedrock's Converse / ConverseStream wire format, upstream direction. */
export const bedrockConverseCodec: ProtocolCodec = {
  id: 'bedrock-converse',
  peek: upstreamOnly,
  passthrough: { upstreamBody: upstreamOnly, openStream: upstreamOnly, keepAliveFrame: undefined },
  takeReasoningState: takeClaudeReasoningState,
  decodeRequest: upstreamOnly,
  encodeRequest: encodeBedrockRequest,
  enforceOnEncoded: enforceConverseThinking,
  decodeResponse: decodeBedrockResponse,
  encodeResponse: upstreamOnly,
  createStreamDecoder: createBedrockStreamDecoder,
  createStreamEncoder: upstreamOnly,
  createUsageTap() {
    let usage: Usage | undefined;
    return {
      observe(message) {
        if (message.event !== 'metadata') return;
        try {
          const payload: unknown = JSON.parse(message.data);
          if (isRecord(payload)) usage = decodeBedrockUsage(payload.usage);
        } catch {
          // A malformed event is reported by the stream itself.
        }
      },
      usage: () => usage,
    };
  },
  encodeError: upstreamOnly,
  /** AWS error bodies are `{"message": …}` (sometimes `Message`); the type rides in a header. */
  decodeError(status, body) {
    if (isRecord(body)) {
      const message = typeof body.message === 'string' ? body.message : typeof body.Message === 'string' ? body.Message : '';
      const type = typeof body.__type === 'string' ? body.__type.split('#').pop() : undefined;
      return type === undefined ? { message } : { message, type };
    }
    return { message: typeof body === 'string' ? body.slice(0, 500) : `HTTP ${status}` };
  },
};
