import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest, isGatewayError } from '../core/gateway-error.ts';
import { registerAccessLog } from './observability/access-log.ts';
import type { AppDeps } from './app-deps.ts';
import { clientIpOf } from './authenticate-request.ts';
import './fastify-context.ts';
import { explainRouteMiss } from './generation/misconfigured-client-hint.ts';
import { renderError } from './render-error.ts';
import { RefusedAuthMonitor } from './generation/refused-auth-monitor.ts';
import { connectionsCheckingIntervalMs, connectionsPerAddress, DEFAULT_SERVER_LIMITS } from '../config/server-limits.ts';
import { guardConnections } from './guard-connections.ts';
import { lazySchemaCompilers } from './lazy-schema-compilers.ts';
import { registerAccountRoutes } from './portal/account-routes.ts';
import { registerAdminInsightRoutes } from './admin/admin-insight-routes.ts';
import { registerPortalAdminRoutes } from './admin/portal-admin-routes.ts';
import { registerAdminPaymentRoutes } from './admin/admin-payment-routes.ts';
import { registerAdminWithdrawalRoutes } from './admin/admin-withdrawal-routes.ts';
import { registerPaymentNotifyRoutes } from './payment-notify-routes.ts';
import { registerAdminAccountRoutes } from './admin/admin-account-routes.ts';
import { registerAdminRoutes } from './admin/admin-routes.ts';
import { registerAdminNotificationRoutes } from './admin/admin-notification-routes.ts';
import { registerAnnouncementRoutes } from './admin/announcement-routes.ts';
import { registerStatusRoutes } from './observability/status-routes.ts';
import { registerAdminPeopleRoutes } from './admin/admin-people-routes.ts';
import { registerAdminTotpRoutes } from './admin/admin-totp-routes.ts';
import { registerAdminSmtpRoutes } from './admin/admin-smtp-routes.ts';
import { registerAdminSessionRoutes } from './admin/admin-session-routes.ts';
import { registerAdminPasskeyRoutes } from './admin/admin-passkey-routes.ts';
import { registerSignUpRoutes } from './portal/sign-up-routes.ts';
import { registerSignInProviderRoutes } from './admin/sign-in-provider-routes.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import { registerAdminAuthorization } from './admin/authorize-admin.ts';
import { checkAdminRoutesDescribed, registerAdminOpenApiRoutes } from './admin/admin-openapi-routes.ts';
import { registerConsoleRoutes } from './admin/console-routes.ts';
import { registerGenerationRoutes } from './generation/generation-routes.ts';
import { registerHealthRoutes } from './observability/health-routes.ts';
import { registerMetricsRoutes } from './observability/metrics-routes.ts';
import { registerModelListRoutes } from './generation/model-list-routes.ts';
import { registerStoredResponseRoutes } from './generation/stored-response-routes.ts';
import { registerSelfServiceRoutes } from './generation/self-service-routes.ts';
import { registerKeyBalanceRoutes } from './generation/key-balance-routes.ts';
import { registerUsageStatsRoutes } from './admin/usage-stats-routes.ts';
import { registerResponsesWebSocket } from './generation/responses-websocket.ts';
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
    schemaController: lazySchemaCompilers,
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
  // Uploads are left unread here: the media routes stream them to disk with their own limits
  // (read-multipart-upload.ts); every other route finds no JSON body and says so.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, undefined));

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
  // Before any admin route: every /api/admin route passes the one gate (authentication, then its permission),
  // attached to each admin route as it is registered (onRoute), so a route registered above this line has none.
  registerAdminAuthorization(app, deps);
  registerAdminRoutes(app, deps);
  registerAdminPeopleRoutes(app, deps);
  registerAdminTotpRoutes(app, deps);
  registerAdminSmtpRoutes(app, deps);
  registerAdminSessionRoutes(app, deps);
  registerAdminPasskeyRoutes(app, deps);
  registerSignInProviderRoutes(app, deps);
  registerAdminAccountRoutes(app, deps);
  registerPortalAdminRoutes(app, deps);
  registerAdminNotificationRoutes(app, deps);
  registerAnnouncementRoutes(app, deps);
  registerStatusRoutes(app, deps);
  registerAdminPaymentRoutes(app, deps);
  registerAdminWithdrawalRoutes(app, deps);
  registerPaymentNotifyRoutes(app, deps);
  registerAccountRoutes(app, deps);
  registerSignUpRoutes(app, deps);
  registerAuthRoutes(app, deps);
  registerUsageStatsRoutes(app, deps);
  registerSelfServiceRoutes(app, deps);
  registerKeyBalanceRoutes(app, deps);
  registerAdminInsightRoutes(app, deps);
  registerConsoleRoutes(app, deps);
  const refusedAuth = new RefusedAuthMonitor(deps.metrics, deps.logger, deps.runtime.now);
  for (const [prefix, surface] of [
    ['', null],
    [`/${deps.settings.altPrefix}`, deps.settings.altPrefix],
  ] as const) {
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
