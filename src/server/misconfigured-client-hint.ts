import { GatewayError } from '../core/gateway-error.ts';
import type { ProtocolId } from '../protocols/protocol-codec.ts';

export interface RouteMiss {
  protocol: ProtocolId;
  error: GatewayError;
}

/**
 * A request for a path the gateway does not serve usually means a client was given the wrong
 * base address. Recognise the common mistakes (specification §7 and its base-address table)
 * and answer with a 404 that says exactly which address to enter, in the client's own shape.
 */
export function explainRouteMiss(method: string, path: string, altPrefix: string): RouteMiss {
  const bare = path.split('?')[0] ?? path;
  const gemini = (message: string): RouteMiss => ({
    protocol: 'gemini-generate-content',
    error: new GatewayError('route_not_found', message),
  });
  const openai = (message: string): RouteMiss => ({ protocol: 'openai-chat', error: new GatewayError('route_not_found', message) });

  if (/\/v1beta\/v1beta\//.test(bare) || /\/v1beta\/v1\/models/.test(bare)) {
    return gemini(
      'This gateway was configured with an address ending in /v1beta, so the client added /v1beta twice. For the Gemini CLI (GOOGLE_GEMINI_BASE_URL) and the @google/genai SDK, configure the root address instead, without /v1beta.',
    );
  }
  if (/^\/v1\/v1beta\//.test(bare) || (/^\/models\/[^/]+:/.test(bare))) {
    return gemini(
      'Gemini-style requests go under /v1beta. For a Gemini provider in another tool, configure the base address ending in /v1beta (the root plus /v1beta); for the Gemini CLI, configure the root address.',
    );
  }
  if (/^\/v1\/(chat\/completions|models|responses|messages)\/(chat\/completions|responses|models|messages)$/.test(bare)) {
    return openai(
      'The client appended its own path to an address that already ended in an endpoint. For OpenAI SDKs and similar clients, configure the base address ending in /v1 (the root plus /v1), not /v1/chat/completions or /v1/models.',
    );
  }
  if (/^\/(chat\/completions|responses|completions|embeddings)$/.test(bare)) {
    return openai(
      `There is no ${bare} at the root. For OpenAI SDKs and similar clients, configure the base address ending in /v1 (the root plus /v1); raw HTTP calls go to /v1${bare}.`,
    );
  }
  if (/^\/messages(\/count_tokens)?$/.test(bare) || /^\/v1\/v1\/messages/.test(bare)) {
    return {
      protocol: 'anthropic-messages',
      error: new GatewayError(
        'route_not_found',
        'Anthropic-style clients (Claude Code, the Anthropic SDK) must be configured with the root address, without /v1; they add /v1/messages themselves.',
      ),
    };
  }
  const protocol: ProtocolId = bare.includes('/v1beta') ? 'gemini-generate-content' : bare.includes('/messages') ? 'anthropic-messages' : 'openai-chat';
  return {
    protocol,
    error: new GatewayError(
      'route_not_found',
      `No endpoint at ${method} ${bare}. This gateway serves /v1/chat/completions, /v1/responses and /v1/models (OpenAI; base address <root>/v1), /v1/messages (Anthropic; base address <root>), /v1beta/models/{model}:generateContent (Gemini; base address <root>), and the same under /${altPrefix}/.`,
    ),
  };
}
