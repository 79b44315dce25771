import type { SimulatorProtocol } from './recorded-request.ts';
import { errorFamily } from './provider-errors.ts';

function bearer(headers: Record<string, string>): string | undefined {
  const authorization = headers.authorization;
  if (authorization === undefined) return undefined;
  const match = /^Bearer\s+(.*)$/i.exec(authorization);
  return match === null ? undefined : match[1];
}

/** The key the caller presented, looked up where that provider looks for it. */
export function presentedKey(protocol: SimulatorProtocol, headers: Record<string, string>, query: Record<string, string>): string | undefined {
  const family = errorFamily(protocol);
  switch (family) {
    case 'openai':
      return bearer(headers);
    case 'anthropic':
      // Anthropic itself prefers x-api-key when both arrive.
      return headers['x-api-key'] ?? bearer(headers);
    case 'gemini':
      return headers['x-goog-api-key'] ?? query.key ?? bearer(headers);
    default: {
      const unreachable: never = family;
      return unreachable;
    }
  }
}
