import type { IncomingHttpHeaders } from 'node:http';

/** Where each client family carries its key. A key in another family's header is not accepted. */
export type CredentialStyle = 'bearer' | 'anthropic' | 'gemini';

/**
 * Reads the caller's key from the place its protocol puts it:
 * OpenAI and the alternative-client prefix use `Authorization: Bearer`; Anthropic clients send
 * `x-api-key` (Claude Code with ANTHROPIC_API_KEY) or Bearer (ANTHROPIC_AUTH_TOKEN, SDK ≥ 1.0);
 * Gemini clients send `x-goog-api-key` or `?key=`, and Bearer when told to.
 */
export function extractApiKey(style: CredentialStyle, headers: IncomingHttpHeaders, query: Record<string, unknown>): string | undefined {
  switch (style) {
    case 'bearer':
      return bearerToken(headers);
    case 'anthropic':
      return nonEmpty(headers['x-api-key']) ?? bearerToken(headers);
    case 'gemini':
      return nonEmpty(headers['x-goog-api-key']) ?? nonEmpty(query.key) ?? bearerToken(headers);
    default: {
      const unreachable: never = style;
      return unreachable;
    }
  }
}

function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(value.trim());
  return match ? nonEmpty(match[1]) : undefined;
}

function nonEmpty(value: unknown): string | undefined {
  if (Array.isArray(value)) return nonEmpty(value[0]);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
