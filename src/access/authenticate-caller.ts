import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../core/gateway-error.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { authenticateKey, requireUsableKey, type Caller } from './authenticate-key.ts';
import { checkIpAllowed } from './check-ip-allowed.ts';
import { expectedCredential, extractApiKey, type CredentialStyle } from './extract-api-key.ts';
import { KeyRefusedError } from './key-refused-error.ts';

/** What a request shows of its caller, whatever web framework received it. */
export interface CallerCredentials {
  headers: IncomingHttpHeaders;
  query: Record<string, unknown>;
  /** The request path without its query (for a teaching error). */
  path: string;
  clientIp: string;
}

/**
 * The key rules every client surface applies before anything else: a complete, known key in
 * the surface's own header, not disabled, not expired, used from an allowed address. A known key
 * refused for its state or address is a `KeyRefusedError`, naming the caller.
 */
export function authenticateCaller(snapshot: Snapshot, now: number, credentials: CallerCredentials, style: CredentialStyle): Caller {
  const secret = extractApiKey(style, credentials.headers, credentials.query);
  if (secret === undefined) explainMisplacedKey(credentials, style);
  const caller = authenticateKey(snapshot, secret);
  try {
    requireUsableKey(snapshot, caller, now);
    checkIpAllowed(caller.key, credentials.clientIp);
  } catch (error) {
    throw error instanceof GatewayError ? new KeyRefusedError(error, caller) : error;
  }
  return caller;
}

/** A key sent in another surface's header is the classic mix-up; say where it goes instead. */
function explainMisplacedKey(credentials: CallerCredentials, style: CredentialStyle): void {
  const found = (['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'] as const).find((name) => credentials.headers[name] !== undefined);
  if (found === undefined) return;
  throw new GatewayError(
    'invalid_api_key',
    `The API key was sent in the "${found}" header, which ${credentials.path} does not read. Send it as ${expectedCredential(style)}, and check the request address and the key (it must be the complete key).`,
  );
}
