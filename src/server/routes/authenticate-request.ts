import type { FastifyRequest } from 'fastify';
import { authenticateKey, type Caller } from '../../access/authenticate-key.ts';
import { checkIpAllowed } from '../../access/check-ip-allowed.ts';
import { extractApiKey, type CredentialStyle } from '../../access/extract-api-key.ts';
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
  const caller = authenticateKey(deps.snapshot.current, secret, deps.runtime.now());
  checkIpAllowed(caller.key, clientIpOf(deps, request));
  return caller;
}
