import type { Logger } from 'pino';
import type { ChatRequest } from '../core/chat-request.ts';
import { GatewayError, isGatewayError } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Usage } from '../core/usage.ts';
import { formatWarning, type Warning } from '../core/warning.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { ProtocolId, StreamEncoderOptions, UpstreamProtocolId } from '../protocols/protocol-codec.ts';
import type { ChannelHealth } from '../routing/channel-health.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import type { UpstreamClient } from '../upstream/upstream-client.ts';
import { attemptChannel, type AttemptFailure } from './attempt-channel.ts';
import type { ClientWriter } from './client-writer.ts';
import { pipeStream } from './pipe-stream.ts';
import { sendReply } from './send-reply.ts';
import type { StreamGauge } from './stream-gauge.ts';

export interface RelayDeps {
  upstream: UpstreamClient;
  runtime: RuntimeContext;
  logger: Logger;
  health: ChannelHealth;
  streams: StreamGauge;
  /** Upstream statuses worth trying on another channel. */
  retryStatuses: ReadonlySet<number>;
  /** Real upstream attempts per request (channels skipped for an open circuit do not count). */
  maxAttempts: number;
  /** The whole request, streams included, ends after this long. */
  totalTimeoutMs: number;
  /** An upstream `retry-after` up to this long is waited out when no other channel is left. */
  maxRetryWaitMs: number;
  /** Keep-alive frames to the client after this much upstream silence. */
  keepAliveMs: number;
}

export interface RelayInput {
  requestId: string;
  clientProtocol: ProtocolId;
  body: Record<string, unknown>;
  /** The body's JSON text as received; the passthrough lane forwards it when nothing changes. */
  rawBody?: string;
  pathModel?: string;
  stream: boolean;
  /** The client's stream framing and whether it asked for usage (from the codec's peek). */
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
  upstreamProtocol: UpstreamProtocolId | undefined;
  usage: Usage | undefined;
  deliveredChars: number;
  warnings: string[];
  attempts: UsageAttempt[];
}

/**
 * The one orchestrator: try the candidate channels in order until one answers, then stream or
 * send its reply in the client's protocol. Channels whose circuit is open are skipped; failures
 * before the client has seen a byte move on to the next channel when they are worth retrying;
 * after that the client gets its protocol's in-stream error. Every attempt's outcome feeds the
 * channel's health.
 */
export async function relayChat(deps: RelayDeps, input: RelayInput): Promise<RelayResult> {
  // One controller per request ends every upstream call: the client leaving, the total
  // deadline, or a malformed stream. (AbortSignal.any plus AbortSignal.timeout cost ~10× more
  // per request, and the timeout's timer outlived the request.)
  const requestController = new AbortController();
  const deadline = requestController.signal;
  const abortRequest = () => requestController.abort();
  if (input.signal.aborted) abortRequest();
  input.signal.addEventListener('abort', abortRequest, { once: true });
  const deadlineTimer = setTimeout(abortRequest, deps.totalTimeoutMs);
  try {
    return await relayAttempts(deps, input, deadline, abortRequest);
  } finally {
    clearTimeout(deadlineTimer);
    input.signal.removeEventListener('abort', abortRequest);
  }
}

async function relayAttempts(deps: RelayDeps, input: RelayInput, deadline: AbortSignal, abortRequest: () => void): Promise<RelayResult> {
  const clientCodec = getCodec(input.clientProtocol);
  const attempts: UsageAttempt[] = [];
  const warnings = new Set<string>();
  let decoded: { request: ChatRequest; warnings: Warning[] } | undefined;
  const decodeClientRequest = () => {
    if (!decoded) {
      const result = clientCodec.decodeRequest(
        input.pathModel === undefined
          ? { body: input.body, pathStream: input.stream }
          : { body: input.body, pathModel: input.pathModel, pathStream: input.stream },
        deps.runtime,
      );
      decoded = { request: result.value, warnings: result.warnings };
    }
    return decoded;
  };
  const finish = (partial: Partial<RelayResult> & Pick<RelayResult, 'status' | 'error'>): RelayResult => ({
    channel: undefined,
    upstreamModel: undefined,
    upstreamProtocol: undefined,
    usage: undefined,
    deliveredChars: 0,
    warnings: [...warnings],
    attempts,
    ...partial,
  });

  let lastFailure: AttemptFailure | undefined;
  let realAttempts = 0;
  const queue = [...input.channels];
  let waitedOnce = false;
  while (queue.length > 0 && realAttempts < deps.maxAttempts) {
    if (deadline.aborted) break;
    const channel = queue.shift() as Channel;
    const lease = deps.health.acquire(channel);
    if (!lease) {
      attempts.push({ channelId: channel.id, channelName: channel.name, status: null, errorCode: 'circuit_open', latencyMs: 0 });
      continue;
    }
    realAttempts += 1;
    let outcome;
    try {
      outcome = await attemptChannel(deps, { ...input, signal: deadline }, channel, lease, decodeClientRequest, abortRequest);
    } catch (error) {
      // The client's own body could not be translated: the same on every channel.
      deps.health.release(channel, lease);
      if (isGatewayError(error)) return finish({ status: error.status, error });
      throw error;
    }
    attempts.push(outcome.attempt);
    for (const warning of outcome.warnings) warnings.add(formatWarning(warning));

    if (outcome.kind === 'failed') {
      lastFailure = outcome;
      // One upstream key refused: the channel's other keys may still work.
      if (outcome.failureClass === 'broken' && channel.apiKeys.length > 1) queue.unshift(channel);
      if (outcome.retryable) {
        const retryAfterMs = (outcome.error.retryAfterSeconds ?? 0) * 1000;
        if (queue.length === 0 && !waitedOnce && retryAfterMs > 0 && retryAfterMs <= deps.maxRetryWaitMs) {
          // The only channel left asked for a short pause: wait it out once rather than fail.
          waitedOnce = true;
          await sleep(retryAfterMs, deadline);
          queue.push(channel);
        }
        continue;
      }
      return finish({ status: outcome.error.status, error: outcome.error, channel, upstreamModel: outcome.upstreamModel, upstreamProtocol: outcome.protocol });
    }

    // Committed to this channel: from here on the client sees its reply.
    const base = { channel, upstreamModel: outcome.upstreamModel, upstreamProtocol: outcome.plan.protocol };
    const upstreamCodec = getCodec(outcome.plan.protocol);
    const headers = replyHeaders(input, warnings, outcome.plan.stream);
    if (outcome.first === undefined || outcome.rest === undefined) {
      const reply = await sendReply({
        response: outcome.response,
        passthrough: outcome.plan.passthrough,
        clientCodec,
        upstreamCodec,
        runtime: deps.runtime,
        writer: input.writer,
        headers,
      });
      settleHealth(deps, channel, lease, outcome.startedAt, reply.error);
      if (reply.error && !input.writer.started) {
        // The reply was unusable and nothing reached the client yet: another channel may do better.
        lastFailure = { ...outcome, kind: 'failed', error: reply.error, retryable: true, failureClass: 'transient' };
        continue;
      }
      return finish({ ...base, status: reply.error ? reply.error.status : 200, error: reply.error, usage: reply.usage });
    }

    input.writer.writeHead(200, headers);
    deps.streams.open += 1;
    try {
      const streamed = await pipeStream({
        firstChunk: outcome.first,
        rest: outcome.rest,
        passthrough: outcome.plan.passthrough,
        clientCodec,
        upstreamCodec,
        encoderOptions: input.encoderOptions,
        runtime: deps.runtime,
        writer: input.writer,
        keepAliveMs: deps.keepAliveMs,
        abortUpstream: () => outcome.abort(),
      });
      // A client that went away is not the channel's fault.
      settleHealth(deps, channel, lease, outcome.startedAt, input.signal.aborted ? undefined : streamed.error);
      return finish({ ...base, status: 200, error: streamed.error, usage: streamed.usage, deliveredChars: streamed.deliveredChars });
    } finally {
      deps.streams.open -= 1;
    }
  }

  if (lastFailure) return finish({ status: lastFailure.error.status, error: lastFailure.error });
  return finish({ status: 503, error: noChannelError(deps, input) });
}

function settleHealth(deps: RelayDeps, channel: Channel, lease: { keyIndex: number; apiKey: string }, startedAt: number, error: GatewayError | undefined): void {
  const now = deps.runtime.now();
  if (!error) deps.health.recordSuccess(channel, lease, now - startedAt);
  else deps.health.recordFailure(channel, lease, { at: now, status: null, code: error.code, message: error.message });
}

function noChannelError(deps: RelayDeps, input: RelayInput): GatewayError {
  const now = deps.runtime.now();
  const retryAts = input.channels.map((channel) => deps.health.describe(channel).retryAt ?? now);
  const waitSeconds = Math.max(1, Math.ceil((Math.min(...retryAts) - now) / 1000));
  return new GatewayError(
    'no_available_channel',
    `Every channel serving "${input.publicModel}" is temporarily out of service after repeated upstream failures; try again in about ${waitSeconds} s.`,
    { retryAfterSeconds: waitSeconds },
  );
}

function replyHeaders(input: RelayInput, warnings: Set<string>, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    ...input.replyHeaders,
    'content-type':
      stream && input.encoderOptions.format !== 'json-array' ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8',
  };
  if (stream) {
    headers['cache-control'] = 'no-cache';
    headers['x-accel-buffering'] = 'no';
  }
  if (warnings.size > 0) headers['x-switchyard-warnings'] = [...warnings].join(', ');
  return headers;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
