import type { FastifyRequest } from 'fastify';
import { authenticateCaller, type CallerCredentials } from '../access/authenticate-caller.ts';
import type { Caller } from '../access/authenticate-key.ts';
import type { CredentialStyle } from '../access/extract-api-key.ts';
import type { AppDeps } from './app-deps.ts';

/** The address the gateway treats as the client's (socket peer, or forwarded by a trusted proxy). */
export function clientIpOf(deps: AppDeps, request: FastifyRequest): string {
  return deps.access.clientIp(request.raw.socket.remoteAddress, request.headers);
}

/** What a Fastify request shows of its caller (see `authenticateCaller`). */
export function credentialsOf(deps: AppDeps, request: FastifyRequest): CallerCredentials {
  return {
    headers: request.headers,
    query: request.query as Record<string, unknown>,
    path: pathOf(request.url),
    clientIp: clientIpOf(deps, request),
  };
}

/** The path without its query; no new string when there is no query (the usual case), no array ever. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * `authenticateCaller` for a route that has a Fastify request in hand. The caller is kept on
 * the request, so the access line of a request the pipeline does not log (a model list, a bad
 * body after the key was accepted) names the key.
 */
export function authenticateRequest(deps: AppDeps, request: FastifyRequest, style: CredentialStyle): Caller {
  const caller = authenticateCaller(deps.snapshot.current, deps.runtime.now(), credentialsOf(deps, request), style);
  request.caller = caller;
  return caller;
}
