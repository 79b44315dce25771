import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../access/authenticate-key.ts';
import { authorizeModel } from '../../access/authorize-model.ts';
import type { CredentialStyle } from '../../access/extract-api-key.ts';
import { estimateTokensFromChars } from '../../core/estimate-tokens.ts';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { Usage } from '../../core/usage.ts';
import { getCodec } from '../../protocols/codec-registry.ts';
import { encodeErrorReply } from '../../protocols/encode-error-reply.ts';
import type { ClientRequestInput, ProtocolId, StreamEncoderOptions } from '../../protocols/protocol-codec.ts';
import { isRecord } from '../../protocols/shared/is-record.ts';
import { ClientWriter } from '../../relay/client-writer.ts';
import { relayChat, type RelayResult } from '../../relay/relay-chat.ts';
import { orderAttempts } from '../../routing/order-attempts.ts';
import type { AppDeps } from '../app-deps.ts';
import { admitGeneration, type Admission } from './admit-generation.ts';
import { authenticateRequest, clientIpOf } from './authenticate-request.ts';
import { ESTIMATED_USAGE_WARNING, recordGenerationUsage, type GenerationOutcome } from './record-generation-usage.ts';

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
 * One generation request, any client protocol: authenticate (key, expiry, IP), authorise the
 * model, admit it under price, rate limits, spend caps and balance, relay, settle the exact
 * cost, and log one row whatever happened. Errors before the relay starts are thrown and
 * rendered by the app's error handler in the caller's shape; the relay writes its own.
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
  const clientIp = clientIpOf(deps, request);
  let caller: Caller | undefined;
  let model: string | null = target.pathModel ?? null;
  let admission: Admission | undefined;
  const codec = getCodec(route.protocol);
  const peek = codec.peek(requestInput(request.body, target));
  const stream = peek.stream;
  // Reads caller and model when called: the row names as much as was known by then.
  const record = (outcome: GenerationOutcome, warnings: string[]): void =>
    recordGenerationUsage(deps, { request, route, caller, model, stream, startedAt, clientIp, outcome, warnings });
  try {
    caller = authenticateRequest(deps, request, route.credentials);
    const body = requireObjectBody(request.body);
    model = requireModel(peek.model);
    const channels = authorizeModel(snapshot, caller, model, route.surface);
    admission = await admitGeneration(deps, caller, model, {
      protocol: route.protocol,
      body,
      pathModel: target.pathModel,
      stream,
    });

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
        ...(request.rawBody === undefined ? {} : { rawBody: request.rawBody }),
        ...(target.pathModel === undefined ? {} : { pathModel: target.pathModel }),
        stream,
        encoderOptions: { ...target.encoderOptions, includeUsage: peek.includeUsage },
        publicModel: model,
        channels: orderAttempts(channels, deps.runtime.random),
        forwardedHeaders: pickForwardedHeaders(request),
        replyHeaders: { 'x-request-id': request.id, 'request-id': request.id },
        writer,
        signal: abort.signal,
      },
    );

    if (result.error) writeErrorReply(writer, route.protocol, result.error, request.id);
    const billed = billedUsage(result, admission);
    const costMicros = await admission.finish(billed.usage);
    record(
      { kind: 'relayed', result, firstByteAt: writer.firstByteAt, usage: billed.usage, costMicros },
      [...admission.warnings, ...billed.warnings],
    );
  } catch (thrown) {
    const error = thrown instanceof GatewayError ? thrown : internalError(deps, request.id, thrown);
    await admission?.finish(undefined);
    record({ kind: 'refused', error }, admission?.warnings ?? []);
    // Before the hijack the app's error handler renders it; after, nobody else can.
    if (!reply.sent) throw error;
    writeErrorReply(new ClientWriter(reply.raw, deps.runtime.now), route.protocol, error, request.id);
  }
}

/**
 * What to bill: the upstream's reported usage, or, for a stream cut before the upstream
 * reported any, the estimated input plus the output actually delivered to the client.
 */
function billedUsage(result: RelayResult, admission: Admission): { usage: Usage | undefined; warnings: string[] } {
  if (result.usage) return { usage: result.usage, warnings: [] };
  if (result.deliveredChars === 0) return { usage: undefined, warnings: [] };
  const estimate = admission.estimate();
  // A cut stream cannot have produced more than the client's own output limit.
  const delivered = estimateTokensFromChars(result.deliveredChars);
  return {
    usage: { inputTokens: estimate?.inputTokens ?? 0, outputTokens: Math.min(delivered, estimate?.maxOutputTokens ?? delivered) },
    warnings: [ESTIMATED_USAGE_WARNING],
  };
}

/** Writes an error reply on a hijacked response, unless the reply already began. */
function writeErrorReply(writer: ClientWriter, protocol: ProtocolId, error: GatewayError, requestId: string): void {
  if (writer.started || writer.closed) {
    if (!writer.closed) writer.end();
    return;
  }
  const { status, headers, body } = encodeErrorReply(protocol, error, requestId);
  writer.writeHead(status, headers);
  writer.end(body);
}

function internalError(deps: AppDeps, requestId: string, thrown: unknown): GatewayError {
  deps.logger.error({ err: thrown, requestId }, 'unexpected failure while relaying');
  return new GatewayError('internal_error', 'The gateway failed unexpectedly; the failure is logged under this request id.', { cause: thrown });
}

function requestInput(body: unknown, target: GenerationTarget): ClientRequestInput {
  return {
    body,
    ...(target.pathModel === undefined ? {} : { pathModel: target.pathModel }),
    ...(target.pathStream === undefined ? {} : { pathStream: target.pathStream }),
  };
}

function requireObjectBody(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.');
  return body;
}

function requireModel(model: string | undefined): string {
  if (model === undefined || model === '') {
    throw invalidRequest('The request body needs a "model" field naming one of the models your key can use (see GET /v1/models).', 'model');
  }
  return model;
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
