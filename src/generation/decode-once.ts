import type { ChatRequest } from '../core/chat-request.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Warning } from '../core/warning.ts';
import type { ClientRequestInput, ProtocolCodec } from '../protocols/protocol-codec.ts';

export interface DecodedClientRequest {
  request: ChatRequest;
  warnings: Warning[];
}

/**
 * The client's request decoded at most once, on first need, and shared: the admission's
 * estimate and every translated attempt read the same value (a passthrough request with no
 * limits is never decoded). A body that cannot be decoded throws the same error to each caller.
 */
export function decodeOnce(codec: ProtocolCodec, input: ClientRequestInput, runtime: RuntimeContext): () => DecodedClientRequest {
  let decoded: DecodedClientRequest | undefined;
  let failure: { error: unknown } | undefined;
  return () => {
    if (decoded) return decoded;
    if (failure) throw failure.error;
    try {
      const result = codec.decodeRequest(input, runtime);
      decoded = { request: result.value, warnings: result.warnings };
      return decoded;
    } catch (error) {
      failure = { error };
      throw error;
    }
  };
}
