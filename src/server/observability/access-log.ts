import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { UsageLogEntry } from '../../domain/usage-log-entry.ts';

/**
 * One structured `info` line per HTTP request, for the operator's log pipeline.
 *
 * Generation requests get theirs from their usage row (`logGenerationAccess`), written when the
 * pipeline records it, relayed or refused: that row already knows the key, model, channel,
 * attempts, tokens and cost. Every other request — admin API, metrics, console, and generation
 * requests refused before the pipeline ran (bad JSON, too large) — gets a shorter line from the
 * framework's response hook. Neither ever carries a header, a query string (Gemini clients put
 * their key there), a body, an error message (upstream messages may quote the prompt) or a secret.
 */
/** The pipeline will write this request's line (call before handing the request to it). */
export function markPipelineRequest(request: FastifyRequest): void {
  // A declared request property (see registerAccessLog), not a WeakSet: a WeakSet entry per
  // request costs more to add and to collect.
  request.loggedByPipeline = true;
}

export function logGenerationAccess(logger: Logger, entry: UsageLogEntry): void {
  // Below info (LOG_LEVEL=warn) pino drops the line: do not build it first.
  if (!logger.isLevelEnabled('info')) return;
  const attempts = entry.attempts;
  logger.info(
    {
      requestId: entry.requestId,
      // A Responses WebSocket turn is a message on an upgraded socket, not a POST.
      method: entry.transport === 'websocket' ? 'WS' : 'POST',
      transport: entry.transport ?? 'http',
      protocol: entry.clientProtocol,
      surface: entry.surface,
      keyId: entry.keyId,
      keyName: entry.keyName,
      group: entry.group,
      model: entry.model,
      upstreamModel: entry.upstreamModel,
      channel: entry.channelName,
      status: entry.status,
      errorCode: entry.errorCode,
      attempts: attempts.length,
      // Which channels were tried and how each ended, e.g. "hang:first_byte_timeout,steady:200".
      tries: attempts.length > 1 ? attempts.map((attempt) => `${attempt.channelName}:${attempt.errorCode ?? attempt.status ?? '-'}`).join(',') : undefined,
      stream: entry.stream,
      inputTokens: entry.inputTokens,
      outputTokens: entry.outputTokens,
      cacheReadTokens: entry.cacheReadTokens,
      reasoningTokens: entry.reasoningTokens,
      costMicros: entry.costMicros,
      durationMs: entry.latencyMs,
      ttfbMs: entry.ttftMs,
      clientIp: entry.clientIp,
    },
    'request',
  );
}

/** The line for every request the generation pipeline did not log itself. */
export function registerAccessLog(app: FastifyInstance, logger: Logger, clientIpOf: (request: FastifyRequest) => string): void {
  app.decorateRequest('loggedByPipeline', false);
  // A callback hook, not an async one: it runs for every request, and most return at once.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.loggedByPipeline) {
      done();
      return;
    }
    const errorCode = reply.getHeader('x-switchyard-error-code');
    const protocol = request.routeOptions.config.protocol ?? null;
    logger.info(
      {
        requestId: request.id,
        method: request.method,
        path: pathOf(request.url),
        route: request.routeOptions.url ?? null,
        protocol,
        // A key route names the key it accepted (null when none was). A generation request refused
        // before the pipeline (its key, its JSON, its size) keeps the pipeline line's shape:
        // nothing went upstream. A model list or a stored-response read has no attempts at all.
        ...(protocol === null ? {} : { keyId: request.caller?.key.id ?? null }),
        ...(protocol !== null && request.method === 'POST' ? { attempts: 0 } : {}),
        status: reply.statusCode,
        errorCode: typeof errorCode === 'string' ? errorCode : null,
        durationMs: Math.round(reply.elapsedTime),
        clientIp: clientIpOf(request),
      },
      'request',
    );
    done();
  });
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
