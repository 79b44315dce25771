import { clientAddress, clientProtocol, type ClientKind } from '../domain/client-kinds.ts';
import type { ProtocolId } from '../protocols/protocol-codec.ts';

export { CLIENT_KINDS, isClientKind, type ClientKind } from '../domain/client-kinds.ts';

export interface ClientSetup {
  protocol: ProtocolId;
  /** The address to enter in the client. */
  baseUrl: string;
  /** Where the key goes. */
  credential: string;
  /** The path prefix surface the client reaches, or null for the root surfaces. */
  surface: string | null;
  /** How to configure it, one sentence. */
  advice: string;
}

/** The specification's base-address table, spelled out for one client kind and this gateway's origin. */
export function clientSetup(kind: ClientKind, origin: string, altPrefix: string, model: string): ClientSetup {
  switch (kind) {
    case 'openai-sdk':
      return {
        protocol: clientProtocol(kind),
        baseUrl: clientAddress(kind, origin, altPrefix),
        credential: 'Authorization: Bearer <API_KEY>',
        surface: null,
        advice: `Set the SDK's base URL (OPENAI_BASE_URL / baseURL) to ${origin}/v1; the SDK appends /chat/completions itself, so do not enter /chat/completions or /models.`,
      };
    case 'openai-http':
      return {
        protocol: clientProtocol(kind),
        baseUrl: clientAddress(kind, origin, altPrefix),
        credential: 'Authorization: Bearer <API_KEY>',
        surface: null,
        advice: `POST the JSON body to ${origin}/v1/chat/completions with Content-Type: application/json and "model": "${model}".`,
      };
    case 'claude-code':
      return {
        protocol: clientProtocol(kind),
        baseUrl: clientAddress(kind, origin, altPrefix),
        credential: 'x-api-key: <API_KEY> (ANTHROPIC_API_KEY) or Authorization: Bearer <API_KEY> (ANTHROPIC_AUTH_TOKEN)',
        surface: null,
        advice: `Set ANTHROPIC_BASE_URL=${origin} (the root, without /v1) and ANTHROPIC_MODEL=${model}; no manual model-list fetch is needed.`,
      };
    case 'anthropic-sdk':
      return {
        protocol: clientProtocol(kind),
        baseUrl: clientAddress(kind, origin, altPrefix),
        credential: 'x-api-key: <API_KEY>',
        surface: null,
        advice: `Set the SDK's baseURL to ${origin} (the root, without /v1); it appends /v1/messages itself.`,
      };
    case 'gemini-cli':
      return {
        protocol: clientProtocol(kind),
        baseUrl: clientAddress(kind, origin, altPrefix),
        credential: 'x-goog-api-key: <API_KEY> (GEMINI_API_KEY)',
        surface: null,
        advice: `Set GOOGLE_GEMINI_BASE_URL=${origin} (the root, not /v1beta), GEMINI_API_KEY=<API_KEY> and GEMINI_MODEL=${model}.`,
      };
    case 'genai-sdk':
      return {
        protocol: clientProtocol(kind),
        baseUrl: clientAddress(kind, origin, altPrefix),
        credential: 'x-goog-api-key: <API_KEY>',
        surface: null,
        advice: `Pass httpOptions: { baseUrl: "${origin}", apiVersion: "v1beta" } (the root, not /v1beta).`,
      };
    case 'gemini-http':
      return {
        protocol: clientProtocol(kind),
        baseUrl: clientAddress(kind, origin, altPrefix),
        credential: 'x-goog-api-key: <API_KEY>',
        surface: null,
        advice: `Use ${origin}/v1beta and append the endpoint path, e.g. POST ${origin}/v1beta/models/${encodeURIComponent(model)}:generateContent or GET ${origin}/v1beta/models.`,
      };
    case 'codex':
      return {
        protocol: clientProtocol(kind),
        baseUrl: clientAddress(kind, origin, altPrefix),
        credential: 'Authorization: Bearer <API_KEY>',
        surface: null,
        // Both recipes: Codex's own provider (OpenAI's documented way to point it at a proxy: WebSocket
        // turns, remote compaction) and a custom provider (plain HTTP). The built-in provider reads its
        // key from CODEX_API_KEY or `codex login --with-api-key`, never from OPENAI_API_KEY.
        advice: `Either set openai_base_url = "${origin}/v1" in ~/.codex/config.toml (the built-in provider; give the key with \`printenv SWITCHYARD_KEY | codex login --with-api-key\` or CODEX_API_KEY=<API_KEY>, not OPENAI_API_KEY), or add a provider with base_url = "${origin}/v1", env_key and wire_api = "responses"; Codex appends /responses and /models.`,
      };
    case 'antigravity':
      return {
        protocol: clientProtocol(kind),
        baseUrl: clientAddress(kind, origin, altPrefix),
        credential: 'Authorization: Bearer <API_KEY>',
        surface: altPrefix,
        advice: `Use the alternative-client prefix: ${origin}/${altPrefix}/v1 for OpenAI-style providers (its model list is ${origin}/${altPrefix}/v1/models), ${origin}/${altPrefix} for Anthropic-style and ${origin}/${altPrefix}/v1beta for Gemini-style ones.`,
      };
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}
