import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest, isGatewayError } from '../core/gateway-error.ts';
import { registerAccessLog } from './access-log.ts';
import type { AppDeps } from './app-deps.ts';
import { clientIpOf } from './routes/authenticate-request.ts';
import './fastify-context.ts';
import { explainRouteMiss } from './misconfigured-client-hint.ts';
import { renderError } from './render-error.ts';
import { RefusedAuthMonitor } from './refused-auth-monitor.ts';
import { connectionsCheckingIntervalMs, connectionsPerAddress, DEFAULT_SERVER_LIMITS } from '../config/server-limits.ts';
import { guardConnections } from './guard-connections.ts';
import { registerAccountRoutes } from './routes/account-routes.ts';
import { registerAdminInsightRoutes } from './routes/admin-insight-routes.ts';
import { registerPortalAdminRoutes } from './routes/portal-admin-routes.ts';
import { registerAdminPaymentRoutes } from './routes/admin-payment-routes.ts';
import { registerPaymentNotifyRoutes } from './routes/payment-notify-routes.ts';
import { registerAdminAccountRoutes } from './routes/admin-account-routes.ts';
import { registerAdminRoutes } from './routes/admin-routes.ts';
import { registerAdminPeopleRoutes } from './routes/admin-people-routes.ts';
import { registerAdminAuthorization } from './routes/authorize-admin.ts';
import { checkAdminRoutesDescribed, registerAdminOpenApiRoutes } from './routes/admin-openapi-routes.ts';
import { registerConsoleRoutes } from './routes/console-routes.ts';
import { registerGenerationRoutes } from './routes/generation-routes.ts';
import { registerHealthRoutes } from './routes/health-routes.ts';
import { registerMetricsRoutes } from './routes/metrics-routes.ts';
import { registerModelListRoutes } from './routes/model-list-routes.ts';
import { registerStoredResponseRoutes } from './routes/stored-response-routes.ts';
import { registerSelfServiceRoutes } from './routes/self-service-routes.ts';
import { registerKeyBalanceRoutes } from './routes/key-balance-routes.ts';
import { registerUsageStatsRoutes } from './routes/usage-stats-routes.ts';
import { registerResponsesWebSocket } from './responses-websocket.ts';
import { DEFAULT_RESPONSES_WEBSOCKET } from '../config/responses-websocket-settings.ts';

/**
 * Builds the HTTP app from its dependencies. Every error, wherever it is thrown, ends in the
 * one error handler, which renders it in the protocol of the route it happened on.
 */
export function createApp(deps: AppDeps): FastifyInstance {
  const limits = deps.settings.limits ?? DEFAULT_SERVER_LIMITS;
  const app = Fastify({
    bodyLimit: deps.settings.bodyLimitBytes,
    genReqId: () => deps.runtime.generateId('req_'),
    logger: false,
    // Receiving the request (headers, then body) is bounded so drip-fed requests cannot hold
    // sockets forever; the reply is not (long streams are governed by the upstream timeouts).
    requestTimeout: limits.bodyTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: connectionsCheckingIntervalMs(limits) },
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // close() ends idle keep-alive connections at once instead of waiting out keepAliveTimeout;
    // connections with a request in flight finish it first (graceful drain).
    forceCloseConnections: 'idle',
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });

  // Parse JSON ourselves: plain JSON.parse is faster than the default prototype-poisoning
  // scan, and the result is only ever read, never merged into other objects. Any content type
  // is read as JSON, because some clients send none.
  const parseJson = (request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void) => {
    if (body === '') return done(null, undefined);
    try {
      // The text is kept too: the passthrough lane forwards it instead of re-serialising.
      request.rawBody = body;
      done(null, JSON.parse(body));
    } catch {
      done(invalidRequest('The request body is not valid JSON.'));
    }
  };
  // Declared up front so every request object has the same shape (a property added per request
  // changes its hidden class and slows every later access to it).
  app.decorateRequest('rawBody', undefined);
  app.decorateRequest('caller', undefined);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, parseJson);
  // The same parser under the type nearly every client sends: Fastify caches the parser it finds
  // for a content type, but never the catch-all, so with '*' alone every request parsed its
  // content-type header afresh (a ContentType object, its string and three map look-ups).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);

  app.setErrorHandler((error: FastifyError | GatewayError, request, reply) => {
    const protocol = request.routeOptions.config.protocol ?? 'openai-chat';
    return renderError(reply, protocol, toGatewayError(error, deps), request.id, { quoteRequestId: request.routeOptions.config.consumerFacing !== true });
  });

  app.setNotFoundHandler((request, reply) => {
    const miss = explainRouteMiss(request.method, request.url, deps.settings.altPrefix, request.headers);
    return renderError(reply, miss.protocol, miss.error, request.id);
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerAccessLog(app, deps.logger, (request) => clientIpOf(deps, request));

  // Sockets beyond the cap are closed on accept, before any byte is read; so are sockets beyond
  // one address's share of it, and sockets that send nothing.
  app.server.maxConnections = limits.maxConnections;
  guardConnections(app.server, {
    firstByteTimeoutMs: limits.firstByteTimeoutMs,
    maxPerAddress: connectionsPerAddress(limits),
    trustedProxies: deps.settings.trustedProxies ?? [],
  });

  checkAdminRoutesDescribed(app);
  registerHealthRoutes(app, deps);
  registerAdminOpenApiRoutes(app);
  registerMetricsRoutes(app, deps.metrics, deps.settings, deps.access);
  // Before any admin route: every /api/admin route passes the one gate (authentication, then its permission).
  registerAdminAuthorization(app, deps);
  registerAdminRoutes(app, deps);
  registerAdminPeopleRoutes(app, deps);
  registerAdminAccountRoutes(app, deps);
  registerPortalAdminRoutes(app, deps);
  registerAdminPaymentRoutes(app, deps);
  registerPaymentNotifyRoutes(app, deps);
  registerAccountRoutes(app, deps);
  registerUsageStatsRoutes(app, deps);
  registerSelfServiceRoutes(app, deps);
  registerKeyBalanceRoutes(app, deps);
  registerAdminInsightRoutes(app, deps);
  registerConsoleRoutes(app, deps);
  const refusedAuth = new RefusedAuthMonitor(deps.metrics, deps.logger, deps.runtime.now);
  for (const [prefix, surface] of [['', null], [`/${deps.settings.altPrefix}`, deps.settings.altPrefix]] as const) {
    registerModelListRoutes(app, deps, prefix, surface);
    registerGenerationRoutes(app, deps, prefix, surface, refusedAuth);
    registerStoredResponseRoutes(app, deps, prefix);
  }
  registerResponsesWebSocket(app, deps, deps.settings.responsesWebSocket ?? DEFAULT_RESPONSES_WEBSOCKET);
  return app;
}

function toGatewayError(error: FastifyError | GatewayError, deps: AppDeps): GatewayError {
  if (isGatewayError(error)) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError(
        'body_too_large',
        `The request body is larger than this gateway accepts (${deps.settings.bodyLimitBytes} bytes); send a smaller request or ask the operator to raise BODY_LIMIT_BYTES.`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return invalidRequest('The request body must be a JSON object.');
    default:
      if (typeof error.statusCode === 'number' && error.statusCode < 500) return invalidRequest(error.message);
      deps.logger.error({ err: error }, 'unhandled error');
      return new GatewayError('internal_error', 'The gateway failed unexpectedly; the failure is logged under this request id.');
  }
}
