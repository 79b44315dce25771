import type { Logger } from 'pino';
import type { ChatRequest } from '../core/chat-request.ts';
import { GatewayError } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Usage } from '../core/usage.ts';
import { formatWarning, type Warning } from '../core/warning.ts';
import { getChannelAdapter } from '../channels/channel-registry.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { ProtocolId, StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import { resolveUpstreamModel } from '../routing/resolve-upstream-model.ts';
import type { Channel, UsageAttempt } from '../store/store.ts';
import { toGatewayError, type UpstreamClient } from '../upstream/upstream-client.ts';
import { ClientWriter } from './client-writer.ts';
import { pipeStream } from './pipe-stream.ts';
import { readUpstreamError } from './read-upstream-error.ts';
import { sendReply } from './send-reply.ts';
import { planUpstreamRequest } from './upstream-plan.ts';

export interface RelayDeps {
  upstream: UpstreamClient;
  runtime: RuntimeContext;
  logger: Logger;
  /** Upstream statuses worth trying on another channel. */
  retryStatuses: ReadonlySet<number>;
  maxAttempts: number;
  /** Picks which of a channel's upstream secrets this attempt uses. */
  pickApiKey: (channel: Channel) => string;
}

export interface RelayInput {
  requestId: string;
  clientProtocol: ProtocolId;
  body: Record<string, unknown>;
  pathModel?: string;
  stream: boolean;
  encoderOptions: StreamEncoderOptions;
  publicModel: string;
  /** Candidate channels in attempt order. */
  channels: readonly Channel[];
  forwardedHeaders: Record<string, string>;
  /** Headers every reply carries (request id, …). */
  replyHeaders: Record<string, string>;
  writer: ClientWriter;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

export interface RelayResult {
  status: number;
  error: GatewayError | undefined;
  channel: Channel | undefined;
  upstreamModel: string | undefined;
  upstreamProtocol: ProtocolId | undefined;
  usage: Usage | undefined;
  deliveredChars: number;
  warnings: string[];
  attempts: UsageAttempt[];
}

/**
 * The one orchestrator: for each candidate channel until one succeeds, build the upstream
 * request (passthrough or translated), send it, and stream or send the reply in the client's
 * protocol. Failures before the first byte reaches the client move on to the next channel
 * when they are worth retrying; after that, the client gets its protocol's in-stream error.
 */
export async function relayChat(deps: RelayDeps, input: RelayInput): Promise<RelayResult> {
  const clientCodec = getCodec(input.clientProtocol);
  const attempts: UsageAttempt[] = [];
  const warnings = new Set<string>();
  let decoded: { request: ChatRequest; warnings: Warning[] } | undefined;
  const decodeClientRequest = () => {
    decoded ??= (() => {
      const result = clientCodec.decodeRequest(
        input.pathModel === undefined
          ? { body: input.body, pathStream: input.stream }
          : { body: input.body, pathModel: input.pathModel, pathStream: input.stream },
        deps.runtime,
      );
      return { request: result.value, warnings: result.warnings };
    })();
    return decoded;
  };

  let lastError: GatewayError | undefined;
  for (const channel of input.channels.slice(0, deps.maxAttempts)) {
    if (input.signal.aborted) break;
    const adapter = getChannelAdapter(channel.provider);
    const upstreamProtocol = adapter.selectProtocol(channel, input.clientProtocol);
    const upstreamCodec = getCodec(upstreamProtocol);
    const attemptStarted = deps.runtime.now();
    const attempt: UsageAttempt = { channelId: channel.id, channelName: channel.name, status: null, errorCode: null, latencyMs: 0 };
    attempts.push(attempt);
    const finishAttempt = (status: number | null, error?: GatewayError) => {
      attempt.status = status;
      attempt.errorCode = error?.code ?? null;
      attempt.latencyMs = deps.runtime.now() - attemptStarted;
    };

    let upstreamModel: string;
    let plan: ReturnType<typeof planUpstreamRequest>;
    try {
      upstreamModel = resolveUpstreamModel(channel, input.publicModel);
      plan = planUpstreamRequest({
        clientProtocol: input.clientProtocol,
        upstreamProtocol,
        upstreamCodec,
        clientBody: input.body,
        stream: input.stream,
        upstreamModel,
        decodeClientRequest,
        runtime: deps.runtime,
      });
    } catch (error) {
      // A client body that cannot be decoded fails the same way on every channel.
      const failure = toGatewayError(error);
      finishAttempt(null, failure);
      return result(failure.status, failure);
    }
    for (const warning of plan.warnings) warnings.add(formatWarning(warning));

    const target = adapter.buildRequest({
      channel,
      apiKey: deps.pickApiKey(channel),
      protocol: upstreamProtocol,
      upstreamModel,
      stream: plan.stream,
      forwardedHeaders: plan.passthrough ? input.forwardedHeaders : {},
    });

    let response;
    try {
      response = await deps.upstream.send({ url: target.url, headers: target.headers, body: plan.body, signal: input.signal });
    } catch (error) {
      lastError = toGatewayError(error);
      finishAttempt(null, lastError);
      if (lastError.retryable) continue;
      return result(lastError.status, lastError);
    }

    if (response.statusCode >= 400) {
      lastError = await readUpstreamError(response, upstreamCodec);
      finishAttempt(response.statusCode, lastError);
      if (deps.retryStatuses.has(response.statusCode)) continue;
      return result(lastError.status, lastError);
    }

    const headers = replyHeaders(input, warnings, plan.stream);
    if (!plan.stream) {
      const outcome = await sendReply({
        response,
        passthrough: plan.passthrough,
        clientCodec,
        upstreamCodec,
        publicModel: input.publicModel,
        runtime: deps.runtime,
        writer: input.writer,
        headers,
      });
      finishAttempt(response.statusCode, outcome.error);
      if (outcome.error && !input.writer.started && outcome.error.retryable) {
        lastError = outcome.error;
        continue;
      }
      return { ...result(outcome.error ? outcome.error.status : 200, outcome.error), usage: outcome.usage };
    }

    // Read the first chunk before committing: an upstream that dies right after its headers
    // can still be replaced by the next channel, because the client has seen nothing yet.
    const iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    let first: IteratorResult<Uint8Array>;
    try {
      first = await iterator.next();
    } catch (error) {
      lastError = toGatewayError(error);
      finishAttempt(response.statusCode, lastError);
      continue;
    }
    if (first.done) {
      lastError = new GatewayError('upstream_invalid_response', 'The upstream sent an empty stream.');
      finishAttempt(response.statusCode, lastError);
      continue;
    }
    input.writer.writeHead(200, headers);
    const outcome = await pipeStream({
      firstChunk: first.value,
      rest: iterator,
      passthrough: plan.passthrough,
      clientCodec,
      upstreamCodec,
      encoderOptions: { ...input.encoderOptions, includeUsage: clientAskedForUsage(input.body) },
      clientWantsUsage: clientAskedForUsage(input.body),
      publicModel: input.publicModel,
      runtime: deps.runtime,
      writer: input.writer,
    });
    finishAttempt(response.statusCode, outcome.error);
    if (!input.writer.closed) input.writer.end();
    return { ...result(200, outcome.error), usage: outcome.usage, deliveredChars: outcome.deliveredChars };

    function result(status: number, error: GatewayError | undefined): RelayResult {
      return {
        status,
        error,
        channel,
        upstreamModel,
        upstreamProtocol,
        usage: undefined,
        deliveredChars: 0,
        warnings: [...warnings],
        attempts,
      };
    }
  }

  const error =
    lastError ??
    new GatewayError('no_available_channel', `No channel could serve "${input.publicModel}" right now; try again shortly.`);
  return {
    status: error.status,
    error,
    channel: undefined,
    upstreamModel: undefined,
    upstreamProtocol: undefined,
    usage: undefined,
    deliveredChars: 0,
    warnings: [...warnings],
    attempts,
  };
}

function replyHeaders(input: RelayInput, warnings: Set<string>, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    ...input.replyHeaders,
    'content-type': stream
      ? input.encoderOptions.format === 'json-array'
        ? 'application/json; charset=utf-8'
        : 'text/event-stream; charset=utf-8'
      : 'application/json; charset=utf-8',
  };
  if (stream) {
    headers['cache-control'] = 'no-cache';
    headers['x-accel-buffering'] = 'no';
  }
  if (warnings.size > 0) headers['x-switchyard-warnings'] = [...warnings].join(', ');
  return headers;
}

function clientAskedForUsage(body: Record<string, unknown>): boolean {
  const options = body.stream_options;
  return typeof options === 'object' && options !== null && (options as { include_usage?: unknown }).include_usage === true;
}
