import type { FastifyRequest } from 'fastify';
import { invalidRequest } from '../core/gateway-error.ts';

/** Sign-in takes JSON only: a cross-site HTML form cannot send it without a CORS preflight. */
export function requireJson(request: FastifyRequest): void {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !type.toLowerCase().startsWith('application/json')) {
    throw invalidRequest('Send the sign-in as JSON (content-type: application/json).');
  }
}
