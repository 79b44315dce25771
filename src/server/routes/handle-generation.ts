import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticateKey, type Caller } from '../../access/authenticate-key.ts';
import { authorizeModel } from '../../access/authorize-model.ts';
import { extractApiKey, type CredentialStyle } from '../../access/extract-api-key.ts';
import { computeCostMicros } from '../../billing/compute-cost.ts';
import { estimateTokensFromChars } from '../../core/estimate-tokens.ts';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { Usage } from '../../core/usage.ts';
import type { ProtocolId, StreamEncoderOptions } from '../../protocols/protocol-codec.ts';
import { ClientWriter } from '../../relay/client-writer.ts';
import { relayChat, type RelayResult } from '../../relay/relay-chat.ts';
import { orderAttempts } from '../../routing/order-attempts.ts';
import type { AppDeps } from '../app-deps.ts';
import { recordUsage } from '../record-usage.ts';
import { getCodec } from '../../protocols/codec-registry.ts';

export interface GenerationRoute {
  protocol: ProtocolId;
  credentials: CredentialStyle;
  /** The path prefix surface (`antigravity`) or null for the root surfaces. */
  surface: string | null;
}

export interface GenerationTarget {
  /** Gemini names the model in the path. */
  pathModel?: string;
  /** Gemini chooses streaming by method name. */
  pathStream?: boolean;
  encoderOptions?: StreamEncoderOptions;
}

/**
 * One generation request, any client protocol: authenticate, authorise the model, order the
 * channels, relay, and log the outcome. Errors before the relay starts are thrown and rendered
 * by the app's error handler in the caller's shape; the relay writes its own.
 */
export async function handleGeneration(
  deps: AppDeps,
  route: GenerationRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  target: GenerationTarget = {},
): Promise<void> {
  const startedAt = deps.runtime.now();
  const snapshot = deps.snapshot.current;
  let caller: Caller | undefined;
  let model: string | null = target.pathModel ?? null;
  const stream = target.pathStream ?? isStreamRequested(request.body);
  try {
    caller = authenticateKey(snapshot, extractApiKey(route.credentials, request.headers, request.query as Record<string, unknown>), startedAt);
    const body = requireObjectBody(request.body);
    model = target.pathModel ?? requireModel(body);
    const channels = authorizeModel(snapshot, caller, model, route.surface);

    reply.hijack();
    const writer = new ClientWriter(reply.raw, deps.runtime.now);
    const abort = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });

    const result = await relayChat(
      deps.relay,
      {
        requestId: request.id,
        clientProtocol: route.protocol,
        body,
        ...(target.pathModel === undefined ? {} : { pathModel: target.pathModel }),
        stream,
        encoderOptions: target.encoderOptions ?? {},
        publicModel: model,
        channels: orderAttempts(channels, deps.runtime.random),
        forwardedHeaders: pickForwardedHeaders(request),
        replyHeaders: { 'x-request-id': request.id, 'request-id': request.id },
        writer,
        signal: abort.signal,
      },
    );

    if (result.error) writeErrorReply(writer, route.protocol, result.error, request.id);
    logOutcome(deps, { request, route, caller, model, stream, startedAt, result, firstByteAt: writer.firstByteAt });
  } catch (thrown) {
    const error = thrown instanceof GatewayError ? thrown : internalError(deps, request.id, thrown);
    logFailure(deps, { request, route, caller, model, stream, startedAt, error });
    // Before the hijack the app's error handler renders it; after, nobody else can.
    if (!reply.sent) throw error;
    writeErrorReply(new ClientWriter(reply.raw, deps.runtime.now), route.protocol, error, request.id);
  }
}

/** Writes an error reply on a hijacked response, unless the reply already began. */
function writeErrorReply(writer: ClientWriter, protocol: ProtocolId, error: GatewayError, requestId: string): void {
  if (writer.started || writer.closed) {
    if (!writer.closed) writer.end();
    return;
  }
  const { status, body } = getCodec(protocol).encodeError(error, requestId);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterSeconds));
  writer.writeHead(status, headers);
  writer.end(JSON.stringify(body));
}

function internalError(deps: AppDeps, requestId: string, thrown: unknown): GatewayError {
  deps.logger.error({ err: thrown, requestId }, 'unexpected failure while relaying');
  return new GatewayError('internal_error', 'The gateway failed unexpectedly; the failure is logged under this request id.', { cause: thrown });
}

function isStreamRequested(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

function requireObjectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest('The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

function requireModel(body: Record<string, unknown>): string {
  if (typeof body.model !== 'string' || body.model === '') {
    throw invalidRequest('The request body needs a "model" field naming one of the models your key can use (see GET /v1/models).', 'model');
  }
  return body.model;
}

/** Client headers a same-protocol upstream must see unchanged (Claude Code's betas, API version). */
function pickForwardedHeaders(request: FastifyRequest): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const name of ['anthropic-version', 'anthropic-beta']) {
    const value = request.headers[name];
    if (typeof value === 'string') forwarded[name] = value;
  }
  return forwarded;
}

interface OutcomeInput {
  request: FastifyRequest;
  route: GenerationRoute;
  caller: Caller | undefined;
  model: string | null;
  stream: boolean;
  startedAt: number;
  result: RelayResult;
  firstByteAt: number | undefined;
}

function logOutcome(deps: AppDeps, input: OutcomeInput): void {
  const { result, caller } = input;
  // A stream cut before the upstream reported usage is billed for what was delivered.
  const usage: Usage | undefined =
    result.usage ??
    (result.deliveredChars > 0 ? { inputTokens: 0, outputTokens: estimateTokensFromChars(result.deliveredChars) } : undefined);
  const price = input.model === null ? undefined : deps.snapshot.current.prices.get(input.model);
  const cost = usage && price && caller ? computeCostMicros(usage, price, caller.group.priceMultiplier) : 0;
  recordUsage(deps.usageWriter, {
    requestId: input.request.id,
    time: input.startedAt,
    keyId: caller?.key.id ?? null,
    keyName: caller?.key.name ?? null,
    group: caller?.group.name ?? null,
    model: input.model,
    upstreamModel: result.upstreamModel ?? null,
    channelId: result.channel?.id ?? null,
    channelName: result.channel?.name ?? null,
    clientProtocol: input.route.protocol,
    upstreamProtocol: result.upstreamProtocol ?? null,
    surface: input.route.surface,
    status: result.status,
    errorCode: result.error?.code ?? null,
    errorMessage: result.error?.message ?? null,
    usage,
    costMicros: cost,
    latencyMs: deps.runtime.now() - input.startedAt,
    ttftMs: input.firstByteAt === undefined ? null : input.firstByteAt - input.startedAt,
    stream: input.stream,
    warnings: result.warnings,
    attempts: result.attempts,
    clientIp: input.request.ip ?? null,
  });
}

function logFailure(
  deps: AppDeps,
  input: Omit<OutcomeInput, 'result' | 'firstByteAt'> & { error: GatewayError },
): void {
  recordUsage(deps.usageWriter, {
    requestId: input.request.id,
    time: input.startedAt,
    keyId: input.caller?.key.id ?? null,
    keyName: input.caller?.key.name ?? null,
    group: input.caller?.group.name ?? null,
    model: input.model,
    upstreamModel: null,
    channelId: null,
    channelName: null,
    clientProtocol: input.route.protocol,
    upstreamProtocol: null,
    surface: input.route.surface,
    status: input.error.status,
    errorCode: input.error.code,
    errorMessage: input.error.message,
    usage: undefined,
    costMicros: 0,
    latencyMs: deps.runtime.now() - input.startedAt,
    ttftMs: null,
    stream: input.stream,
    warnings: [],
    attempts: [],
    clientIp: input.request.ip ?? null,
  });
}
