import type { IncomingHttpHeaders } from 'node:http';

import type { CredentialStyle } from '../protocols/protocol-codec.ts';

// Which style a protocol's clients use is the codec's (`credentials`, codec-registry.ts
// `credentialStyleOf`); which headers each style reads is here, and only here.
export type { CredentialStyle } from '../protocols/protocol-codec.ts';

interface CredentialPlaces {
  /** The protocol's own header, read first; Bearer is read last by every style. */
  header?: 'x-api-key' | 'x-goog-api-key';
  query?: 'key';
  /** How a refusal tells the caller where the key goes. */
  expected: string;
}

/**
 * OpenAI and the alternative-client prefix use `Authorization: Bearer`; Anthropic clients send
 * `x-api-key` (Claude Code with ANTHROPIC_API_KEY) or Bearer (ANTHROPIC_AUTH_TOKEN, SDK ≥ 1.0);
 * Gemini clients send `x-goog-api-key` or `?key=`, and Bearer when told to. A key in another
 * family's header is not accepted.
 */
const CREDENTIAL_PLACES: Record<CredentialStyle, CredentialPlaces> = {
  bearer: { expected: '"Authorization: Bearer <API_KEY>"' },
  anthropic: { header: 'x-api-key', expected: '"x-api-key: <API_KEY>" (or "Authorization: Bearer <API_KEY>")' },
  gemini: { header: 'x-goog-api-key', query: 'key', expected: '"x-goog-api-key: <API_KEY>" (or "Authorization: Bearer <API_KEY>")' },
};

/** Reads the caller's key from the place its protocol puts it (see CREDENTIAL_PLACES). */
export function extractApiKey(style: CredentialStyle, headers: IncomingHttpHeaders, query: Record<string, unknown>): string | undefined {
  const places = CREDENTIAL_PLACES[style];
  const fromHeader = places.header === undefined ? undefined : nonEmpty(headers[places.header]);
  return fromHeader ?? (places.query === undefined ? undefined : nonEmpty(query[places.query])) ?? bearerToken(headers);
}

/** Where a key of `style` goes, as a refusal words it. */
export function expectedCredential(style: CredentialStyle): string {
  return CREDENTIAL_PLACES[style].expected;
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
