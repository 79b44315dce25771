import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildInfo } from '../../config/build-info.ts';
import { ADMIN_OPERATIONS } from './admin-api-description.ts';
import { buildAdminOpenApi } from './build-admin-openapi.ts';

export const ADMIN_OPENAPI_PATH = '/api/admin/openapi.json';

/**
 * `GET /api/admin/openapi.json`: the admin API's OpenAPI description, without a token (it
 * describes the API, it holds nothing of the gateway's), built once.
 */
export function registerAdminOpenApiRoutes(app: FastifyInstance): void {
  let document: string | undefined;
  app.get(ADMIN_OPENAPI_PATH, async (_request, reply) => {
    document ??= JSON.stringify(buildAdminOpenApi(buildInfo().version));
    return reply.type('application/json; charset=utf-8').send(document);
  });
}

/**
 * Collects the admin routes as they are registered and, once the app is ready, refuses to
 * start if one has no entry in ADMIN_OPERATIONS or an entry has no route: the description is
 * then complete by construction, and any test that starts the gateway checks it.
 */
export function checkAdminRoutesDescribed(app: FastifyInstance): void {
  const registered = new Set<string>();
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/admin') || route.url === ADMIN_OPENAPI_PATH) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') registered.add(`${method} ${route.url}`);
  });
  app.addHook('onReady', async () => {
    const described = new Set(ADMIN_OPERATIONS.map((operation) => `${operation.method} ${operation.route}`));
    const undescribed = [...registered].filter((route) => !described.has(route));
    const unregistered = [...described].filter((route) => !registered.has(route));
    if (undescribed.length > 0 || unregistered.length > 0) {
      throw new Error(
        `The admin API description (src/server/admin/admin-api-description.ts) is out of date: ${[
          ...undescribed.map((route) => `${route} has no entry`),
          ...unregistered.map((route) => `${route} is described but not registered`),
        ].join('; ')}.`,
      );
    }
  });
}
