import type { FastifyRequest } from 'fastify';
import { authenticateKey, type Caller } from '../../access/authenticate-key.ts';
import { checkIpAllowed } from '../../access/check-ip-allowed.ts';
import { extractApiKey, type CredentialStyle } from '../../access/extract-api-key.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { AppDeps } from '../app-deps.ts';

/** The address the gateway treats as the client's (socket peer, or forwarded by a trusted proxy). */
export function clientIpOf(deps: AppDeps, request: FastifyRequest): string {
  return deps.access.clientIp(request.raw.socket.remoteAddress, request.headers);
}

/**
 * The key rules every client surface applies before anything else: a complete, known key in
 * the surface's own header, not disabled, not expired, used from an allowed address.
 */
export function authenticateRequest(deps: AppDeps, request: FastifyRequest, style: CredentialStyle): Caller {
  const secret = extractApiKey(style, request.headers, request.query as Record<string, unknown>);
  if (secret === undefined) explainMisplacedKey(request, style);
  const caller = authenticateKey(deps.snapshot.current, secret, deps.runtime.now());
  checkIpAllowed(caller.key, clientIpOf(deps, request));
  return caller;
}

const EXPECTED_HEADER: Record<CredentialStyle, string> = {
  bearer: '"Authorization: Bearer <API_KEY>"',
  anthropic: '"x-api-key: <API_KEY>" (or "Authorization: Bearer <API_KEY>")',
  gemini: '"x-goog-api-key: <API_KEY>" (or "Authorization: Bearer <API_KEY>")',
};

/** A key sent in another surface's header is the classic mix-up; say where it goes instead. */
function explainMisplacedKey(request: FastifyRequest, style: CredentialStyle): void {
  const found = (['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'] as const).find((name) => request.headers[name] !== undefined);
  if (found === undefined) return;
  const path = request.url.split('?')[0] ?? request.url;
  throw new GatewayError(
    'invalid_api_key',
    `The API key was sent in the "${found}" header, which ${path} does not read. Send it as ${EXPECTED_HEADER[style]}, and check the request address and the key (it must be the complete key).`,
  );
}
