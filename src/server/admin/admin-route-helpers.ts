import type { FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { StoreConflictError } from '../../store/store.ts';
import type { AppDeps } from '../app-deps.ts';

/** Helpers every admin route file shares: path parameters, the 404 and 409 answers, group checks. */

/** A path parameter as Fastify parsed it ('' when absent). */
export function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name] ?? '';
}

export function notFound(kind: string, id: string): GatewayError {
  return new GatewayError('not_found', `No ${kind} "${id}" exists.`);
}

export async function requireGroups(deps: AppDeps, groups: string[], field: 'group' | 'groups'): Promise<void> {
  for (const group of groups) {
    if (!(await deps.store.groups.get(group))) {
      throw invalidRequest(`${field}: group "${group}" does not exist; create it first with POST /api/admin/groups.`, field);
    }
  }
}

/** Runs a store change, turning a StoreConflictError into a 409 naming the field. */
export async function withConflicts<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof StoreConflictError) throw new GatewayError('conflict', error.message, { param: error.field });
    throw error;
  }
}
