import type { ChatRequest } from '../core/chat-request.ts';
import { GatewayError } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Warning } from '../core/warning.ts';
import type { ClientRequestInput, ProtocolCodec } from './protocol-codec.ts';

export interface DecodedClientRequest {
  request: ChatRequest;
  warnings: Warning[];
}

/**
 * The client's request decoded at most once, on first need, and shared: the admission's
 * estimate and every translated attempt read the same value (a passthrough request with no
 * limits is never decoded). A body that cannot be decoded throws the same error to each caller.
 * `decode` is bound, so it can be handed around as a plain function.
 */
export class DecodeOnce {
  #input: ClientRequestInput | undefined;
  #decoded: DecodedClientRequest | undefined;
  #failure: { error: unknown } | undefined;

  constructor(
    private readonly codec: ProtocolCodec,
    input: ClientRequestInput,
    private readonly runtime: RuntimeContext,
  ) {
    this.#input = input;
  }

  readonly decode = (): DecodedClientRequest => {
    if (this.#decoded) return this.#decoded;
    if (this.#failure) throw this.#failure.error;
    const input = this.#input;
    if (input === undefined) throw new GatewayError('internal_error', 'The request was decoded after its body had been released.');
    try {
      const result = this.codec.decodeRequest(input, this.runtime);
      this.#decoded = { request: result.value, warnings: result.warnings };
      return this.#decoded;
    } catch (error) {
      this.#failure = { error };
      throw error;
    }
  };

  /** Decoded (or failed to) already. */
  get settled(): boolean {
    return this.#decoded !== undefined || this.#failure !== undefined;
  }

  /**
   * Lets go of the body and the decoded request once nothing can need them again (a long stream
   * would otherwise hold them to its end); `decode` throws after this.
   */
  release(): void {
    this.#input = undefined;
    this.#decoded = undefined;
  }
}

/** `DecodeOnce` as a plain function, for callers that never release the body. */
export function decodeOnce(codec: ProtocolCodec, input: ClientRequestInput, runtime: RuntimeContext): () => DecodedClientRequest {
  return new DecodeOnce(codec, input, runtime).decode;
}
