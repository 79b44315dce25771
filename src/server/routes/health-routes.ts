import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';

export function registerHealthRoutes(app: FastifyInstance, _deps: AppDeps): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  // Claude Code probes the root with HEAD before its first request.
  app.get('/', async (_request, reply) =>
    reply.send({ name: 'switchyard', status: 'ok', docs: 'See /console for set-up help and the client configuration table.' }),
  );
}
