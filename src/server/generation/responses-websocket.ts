import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { authenticateCaller, type CallerCredentials } from '../../access/authenticate-caller.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import { ResponsesSocketSession } from '../../generation/responses-socket-session.ts';
import { generationRoute, type GenerationRoute } from '../../generation/generation-request.ts';
import { encodeErrorReply } from '../../protocols/encode-error-reply.ts';
import { DEFAULT_RESPONSES_MAX_TURN_BYTES } from '../../responses/stateful-responses.ts';
import type { AppDeps } from '../app-deps.ts';
import type { ResponsesWebSocketSettings } from '../../config/responses-websocket-settings.ts';

/**
 * Responses over WebSocket: `GET /v1/responses` (and under the alternative prefix) with
 * `Upgrade: websocket`, OpenAI's WebSocket mode. The upgrade is authenticated like a POST
 * (`Authorization: Bearer`, the key's expiry and IP fence), then each socket is a
 * `ResponsesSocketSession` whose turns run through the ordinary pipeline. Refused upgrades are
 * plain HTTP answers in OpenAI's error shape; a 426 (turned off, or the key's socket cap
 * reached) tells the client to use HTTP, which Codex does at once.
 * Each upgrade writes one access line (status 101, or the refusal's); each turn its usage row.
 */
export function registerResponsesWebSocket(app: FastifyInstance, deps: AppDeps, settings: ResponsesWebSocketSettings): void {
  const altPath = `/${deps.settings.altPrefix}/v1/responses`;
  const routes = new Map<string, GenerationRoute>([
    ['/v1/responses', generationRoute('openai-responses', null)],
    [altPath, generationRoute('openai-responses', deps.settings.altPrefix)],
  ]);
  // `ws` parses frames and enforces the size bound (1009 on a larger message); no compression,
  // as OpenAI's socket: it would cost CPU per event for little gain on small JSON events.
  const server = new WebSocketServer({ noServer: true, maxPayload: deps.settings.bodyLimitBytes, perMessageDeflate: false });
  const open = new Set<WebSocket>();
  const kv = deps.access.kv;

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const startedAt = deps.runtime.now();
    const requestId = deps.runtime.generateId('req_');
    const path = pathOf(request.url ?? '/');
    const route = routes.get(path.endsWith('/') ? path.slice(0, -1) : path);
    const clientIp = deps.access.clientIp(request.socket.remoteAddress, request.headers);
    const log = (status: number, keyId: string | null, errorCode: string | null) =>
      deps.logger.info(
        {
          requestId,
          method: 'GET',
          path,
          route: route ? '/v1/responses' : null,
          protocol: 'openai-responses',
          transport: 'websocket',
          keyId,
          status,
          errorCode,
          durationMs: deps.runtime.now() - startedAt,
          clientIp,
        },
        'request',
      );
    const refuse = (error: GatewayError, keyId: string | null) => {
      const reply = encodeErrorReply('openai-responses', error, requestId);
      writeHttpReply(socket, reply.status, reply.headers, reply.body);
      log(reply.status, keyId, error.code);
    };
    socket.on('error', () => socket.destroy());
    if (!route || request.method !== 'GET') {
      refuse(
        new GatewayError(
          'route_not_found',
          `WebSocket upgrades are served at GET /v1/responses only (Responses WebSocket mode), not ${request.method ?? ''} ${path}.`,
        ),
        null,
      );
      return;
    }
    if (!settings.enabled) {
      refuse(
        new GatewayError(
          'websocket_unavailable',
          'Responses over WebSocket is turned off on this gateway (RESPONSES_WEBSOCKET=false); use HTTP: POST /v1/responses.',
        ),
        null,
      );
      return;
    }
    const credentials: CallerCredentials = { headers: request.headers, query: queryOf(request.url ?? ''), path, clientIp };
    let keyId: string;
    try {
      keyId = authenticateCaller(deps.snapshot.current, deps.runtime.now(), credentials, route.credentials).key.id;
    } catch (error) {
      refuse(error instanceof GatewayError ? error : new GatewayError('internal_error', 'The gateway failed unexpectedly.'), null);
      return;
    }
    const leaseKey = `wsock:${keyId}`;
    const leaseTtlMs = settings.pingMs * 3;
    kv.acquireLease(leaseKey, requestId, { max: settings.maxPerKey, ttlMs: leaseTtlMs }).then(
      (lease) => {
        if (!lease.applied) {
          refuse(
            new GatewayError(
              'websocket_unavailable',
              `This key already has ${settings.maxPerKey} Responses WebSockets open, the most it may (RESPONSES_WEBSOCKET_MAX_PER_KEY); close one, or use HTTP: POST /v1/responses.`,
            ),
            keyId,
          );
          return;
        }
        if (socket.destroyed) {
          void kv.releaseLease(leaseKey, requestId).catch(() => undefined);
          return;
        }
        server.handleUpgrade(request, socket, head, (ws) => {
          log(101, keyId, null);
          open.add(ws);
          serveSocket(ws, deps, settings, {
            socket,
            route,
            credentials,
            maxChainBytes: deps.responses?.maxTurnBytes ?? DEFAULT_RESPONSES_MAX_TURN_BYTES,
            renewLease: () => kv.acquireLease(leaseKey, requestId, { max: settings.maxPerKey, ttlMs: leaseTtlMs }),
            onClose: () => {
              open.delete(ws);
              void kv.releaseLease(leaseKey, requestId).catch(() => undefined);
            },
          });
        });
      },
      // Counters unreachable: no cap can be checked, so the client is sent to HTTP.
      () => refuse(new GatewayError('websocket_unavailable', 'The gateway cannot count open WebSockets right now; use HTTP: POST /v1/responses.'), keyId),
    );
  });

  // Open sockets are told the gateway is going away (1001), so close() does not wait on them.
  app.addHook('preClose', (done) => {
    for (const ws of open) ws.close(1001, 'server shutting down');
    server.close();
    done();
  });
}

function serveSocket(
  ws: WebSocket,
  deps: AppDeps,
  settings: ResponsesWebSocketSettings,
  options: {
    /** The upgraded connection `ws` writes to (corked while a chunk's messages are queued). */
    socket: Duplex;
    route: GenerationRoute;
    credentials: CallerCredentials;
    maxChainBytes: number;
    renewLease: () => Promise<unknown>;
    onClose: () => void;
  },
): void {
  const session = new ResponsesSocketSession(
    deps,
    {
      send(text, done) {
        if (ws.readyState !== ws.OPEN) {
          done();
          return;
        }
        ws.send(text, () => done());
      },
      cork: () => options.socket.cork(),
      uncork: () => options.socket.uncork(),
    },
    { route: options.route, credentials: options.credentials, maxChainBytes: options.maxChainBytes },
  );
  let lastActivity = deps.runtime.now();
  let alive = true;
  ws.on('pong', () => {
    alive = true;
  });
  ws.on('message', (data, isBinary) => {
    lastActivity = deps.runtime.now();
    if (isBinary) {
      ws.close(1003, 'send response.create events as text messages');
      return;
    }
    void session.receive(data.toString()).finally(() => {
      lastActivity = deps.runtime.now();
    });
  });
  // One timer per socket does the keep-alive, the idle timeout and the lease renewal.
  const timer = setInterval(() => {
    if (!alive) {
      ws.terminate();
      return;
    }
    if (!session.busy && deps.runtime.now() - lastActivity > settings.idleMs) {
      ws.close(1000, 'idle timeout');
      return;
    }
    alive = false;
    ws.ping();
    void options.renewLease().catch(() => undefined);
  }, settings.pingMs);
  timer.unref();
  ws.on('error', () => ws.terminate());
  ws.on('close', () => {
    clearInterval(timer);
    session.close();
    options.onClose();
  });
}

function writeHttpReply(socket: Duplex, status: number, headers: Record<string, string>, body: string): void {
  if (socket.destroyed) return;
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${Buffer.byteLength(body)}`, 'connection: close', '', body);
  socket.end(lines.join('\r\n'));
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function queryOf(url: string): Record<string, unknown> {
  const query = url.indexOf('?');
  return query === -1 ? {} : Object.fromEntries(new URLSearchParams(url.slice(query + 1)));
}
