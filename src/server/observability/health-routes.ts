import type { FastifyInstance } from 'fastify';
import type { Readiness } from '../../cluster/readiness.ts';
import type { AppDeps } from '../app-deps.ts';

export function registerHealthRoutes(app: FastifyInstance, _deps: AppDeps): void {
  // Liveness: the process serves. Dependencies are /readyz's business, so an outage of the
  // database or Redis never gets healthy instances restarted.
  app.get('/healthz', async () => ({ status: 'ok' }));
  // Claude Code probes the root with HEAD before its first request and keeps getting the JSON
  // status; a browser opening the root is sent to the console. (Decided here rather than in an
  // app-wide onRequest hook, which every generation request paid for.)
  app.get('/', async (request, reply) => {
    const accept = request.headers.accept;
    if (typeof accept === 'string' && accept.includes('text/html')) return reply.redirect('/console/', 302);
    return reply.send({ name: 'switchyard', status: 'ok', docs: 'See /console for set-up help and the client configuration table.' });
  });
}

/**
 * Readiness: 200 when this instance should get traffic, 503 (with the failing checks) otherwise;
 * while draining, connections are let go after their response.
 */
export function registerReadinessRoute(app: FastifyInstance, readiness: Readiness): void {
  letConnectionsGoWhileDraining(app, readiness);
  app.get('/readyz', async (_request, reply) => {
    const report = await readiness.check();
    return (
      reply
        .code(report.ready ? 200 : 503)
        .header('cache-control', 'no-store')
        // The pid tells operators (and the cluster test) which worker answered.
        .send({ status: report.ready ? 'ready' : report.draining ? 'draining' : 'not ready', ...report, pid: process.pid })
    );
  });
}

/**
 * While draining, keep-alive connections are let go after their response: a client's next
 * request goes (through the load balancer) to an instance that stays, and close() does not wait
 * out keepAliveTimeout for connections that went idle after it began.
 */
function letConnectionsGoWhileDraining(app: FastifyInstance, readiness: Readiness): void {
  app.addHook('onSend', async (_request, reply) => {
    if (readiness.draining) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async () => {
    if (readiness.draining) setImmediate(() => app.server.closeIdleConnections());
  });
}
