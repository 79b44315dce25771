import { GatewayError } from '../core/gateway-error.ts';
import type { Usage } from '../core/usage.ts';
import { formatWarning } from '../core/warning.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { Lease } from '../routing/channel-health.ts';
import type { UpstreamProtocolId } from '../protocols/protocol-codec.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import { AttemptRace } from './attempt-race.ts';
import type { AttemptReady } from './attempt-channel.ts';
import { pipeStream } from './pipe-stream.ts';
import { nameReplyModel, nameStreamModel } from './name-reply-model.ts';
import { isReplyTooLarge } from './reply-limits.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayInput } from './relay-input.ts';
import { reasoningRecall } from './reasoning-recall.ts';
import { sendReply } from './send-reply.ts';
import type { Warning } from '../core/warning.ts';
import type { ChatResponse } from '../core/chat-response.ts';
import type { StreamEvent } from '../core/stream-event.ts';
import { replyUsageLosses } from '../protocols/reply-usage-losses.ts';
import { createReasoningStreamSealer, sealReplyReasoning, type ReasoningReplyContext } from '../reasoning/seal-reply-reasoning.ts';
import { channelSecrets } from '../channels/auth/channel-secrets.ts';

export type { RelayDeps } from './relay-deps.ts';
export type { RelayInput } from './relay-input.ts';

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
 * before the client has seen a byte move on to the next channel when they are worth retrying,
 * and a stream that sends no first byte by its deadline is hedged with the next channel
 * (`attempt-race.ts`); after that the client gets its protocol's in-stream error. Every
 * attempt's outcome feeds the channel's health.
 */
export async function relayChat(deps: RelayDeps, input: RelayInput): Promise<RelayResult> {
  // The request's one controller (input.controller) ends every upstream call: the client
  // leaving, the total deadline, or a malformed stream. (AbortSignal.any plus
  // AbortSignal.timeout cost ~10× more per request, and the timeout's timer outlived the request.)
  // One async function, not a wrapper awaiting the attempts: a committed stream suspends every
  // frame above it for its whole life, each with its generator, registers and promise.
  const controller = input.controller;
  const abortRequest = () => controller.abort();
  const deadline = controller.signal;
  const deadlineTimer = setTimeout(abortRequest, deps.totalTimeoutMs);
  try {
    const clientCodec = getCodec(input.clientProtocol);
    const attempts: UsageAttempt[] = [];
    const warnings = new Set<string>(input.warnings);
    const finish = (partial: Partial<RelayResult> & Pick<RelayResult, 'status' | 'error'>): RelayResult => finishResult(partial, warnings, attempts);

    // Dropped once a stream is committed (nothing retries it), so an open stream does not keep
    // the race's queue, attempt list and reasoning look-up.
    let race: AttemptRace | undefined = new AttemptRace(
      deps,
      input,
      deadline,
      abortRequest,
      attempts,
      (list) => addWarnings(list, warnings),
      reasoningRecall(deps, input),
    );
    for (;;) {
      // (The race is only dropped by a committed stream, which returns without coming back here.)
      if (deadline.aborted || race === undefined) break;
      // The next attempt to commit to: channels in order, first-byte deadlines and hedging (attempt-race.ts).
      const next = await race.next();
      if (next.kind === 'exhausted') break;
      if (next.kind === 'refused') return finish({ status: next.error.status, error: next.error });
      if (next.kind === 'failed') {
        const failed = next.outcome;
        return finish({ status: failed.error.status, error: failed.error, channel: next.channel, upstreamModel: failed.upstreamModel, upstreamProtocol: failed.protocol });
      }
      const { channel, lease, outcome } = next;

      // Committed to this channel: from here on the client sees its reply.
      input.onCommit?.({ channel, keyIndex: lease.keyIndex, apiKey: lease.apiKey, passthrough: outcome.plan.passthrough, protocol: outcome.plan.protocol });
      const upstreamCodec = getCodec(outcome.plan.protocol);
      const headers = replyHeaders(input, warnings, outcome.plan.stream);
      const replyWarnings: Warning[] = [];
      const sealing = replySealing(deps, input, channel.id, outcome.plan.protocol, outcome.plan.passthrough, replyWarnings);
      if (outcome.first === undefined || outcome.rest === undefined) {
        // A plain reply is decoded before its headers go out, so its reply-side warnings are in the header too.
        // (Only a plain reply makes this closure: what a stream creates here lives as long as the stream.)
        const transformResponse = (response: ChatResponse): ChatResponse => {
          const named = nameReplyModel(response, outcome.upstreamModel);
          const sealed = sealing ? sealReplyReasoning(named, sealing) : named;
          noteUsageLosses(replyWarnings, input, outcome.plan.passthrough, sealed.usage);
          addWarnings(replyWarnings, warnings);
          if (warnings.size > 0) headers['x-switchyard-warnings'] = [...warnings].join(', ');
          return sealed;
        };
        const reply = await sendReply({
          response: outcome.response,
          passthrough: outcome.plan.passthrough,
          clientCodec,
          upstreamCodec,
          runtime: deps.runtime,
          writer: input.writer,
          headers,
          ...(deps.replyLimits ? { limits: deps.replyLimits } : {}),
          encoderOptions: input.encoderOptions,
          transformResponse,
          ...(input.quoteCost ? { quoteCost: input.quoteCost, reportCost: input.reportCost === true } : {}),
        });
        addWarnings(replyWarnings, warnings);
        // A reply too large for the gateway is what the request asked for: not the channel's fault, and no other channel would do better.
        const tooLarge = isReplyTooLarge(reply.error);
        settleHealth(deps, channel, lease, outcome.startedAt, tooLarge ? undefined : reply.error);
        if (reply.error && !input.writer.started && !tooLarge) {
          // The reply was unusable and nothing reached the client yet: another channel may do better.
          race.failedAfterCommit({ ...outcome, kind: 'failed', error: reply.error, retryable: true, failureClass: 'transient' });
          continue;
        }
        return finish({ channel, upstreamModel: outcome.upstreamModel, upstreamProtocol: outcome.plan.protocol, status: reply.error ? reply.error.status : 200, error: reply.error, usage: reply.usage, deliveredChars: reply.deliveredChars });
      }

      input.writer.writeHead(200, headers);
      race = undefined;
      // Committed to a stream: nothing will retry it, so the request's body (and the upstream's
      // copy of it) need not live as long as the stream does.
      outcome.plan.body = '';
      input.releaseRequest?.();
      deps.streams.open += 1;
      try {
        const streamed = await pipeStream({
          firstChunk: takeFirstChunk(outcome),
          rest: outcome.rest,
          passthrough: outcome.plan.passthrough,
          clientCodec,
          upstreamCodec,
          encoderOptions: input.encoderOptions,
          runtime: deps.runtime,
          writer: input.writer,
          keepAliveMs: deps.keepAliveMs,
          abortUpstream: outcome.abort,
          secrets: channelSecrets(channel),
          ...(deps.replyLimits ? { limits: deps.replyLimits } : {}),
          transformEvents: streamTransform(outcome.upstreamModel, sealing),
        });
        noteUsageLosses(replyWarnings, input, outcome.plan.passthrough, streamed.usage);
        addWarnings(replyWarnings, warnings);
        // A client that went away, or a stream longer than the gateway carries, is not the channel's fault.
        settleHealth(deps, channel, lease, outcome.startedAt, input.writer.clientGone || isReplyTooLarge(streamed.error) ? undefined : streamed.error);
        return finish({ channel, upstreamModel: outcome.upstreamModel, upstreamProtocol: outcome.plan.protocol, status: 200, error: streamed.error, usage: streamed.usage, deliveredChars: streamed.deliveredChars });
      } finally {
        deps.streams.open -= 1;
      }
    }

    const lastFailure = race?.lastFailure;
    if (lastFailure) return finish({ status: lastFailure.error.status, error: lastFailure.error });
    return finish({ status: 503, error: noChannelError(deps, input) });
  } finally {
    clearTimeout(deadlineTimer);
  }
}

/** Adds warnings (an attempt's, or the reply's) to the request's set, in their header form. */
function addWarnings(list: readonly Warning[], warnings: Set<string>): void {
  for (const warning of list) warnings.add(formatWarning(warning));
}

/** Translated replies can lose what the client's protocol has no field for (reply-side warnings). */
function noteUsageLosses(replyWarnings: Warning[], input: RelayInput, passthrough: boolean, usage: Usage | undefined): void {
  if (!passthrough) replyWarnings.push(...replyUsageLosses(input.clientProtocol, usage));
}

/** Every result is one literal of the same shape (spreading the varying partial shapes made this a megamorphic object copy on every request). */
function finishResult(partial: Partial<RelayResult> & Pick<RelayResult, 'status' | 'error'>, warnings: Set<string>, attempts: UsageAttempt[]): RelayResult {
  return {
    status: partial.status,
    error: partial.error,
    channel: partial.channel,
    upstreamModel: partial.upstreamModel,
    upstreamProtocol: partial.upstreamProtocol,
    usage: partial.usage,
    deliveredChars: partial.deliveredChars ?? 0,
    warnings: [...warnings],
    attempts,
  };
}

/**
 * The stream's first chunk, taken out of the outcome: pipeStream drops it once written, but this
 * frame holds the outcome (and would hold a local) for the stream's life.
 */
function takeFirstChunk(outcome: AttemptReady): Uint8Array {
  const first = outcome.first as Uint8Array;
  outcome.first = undefined;
  return first;
}

/** How this reply's reasoning state reaches the client, when the client speaks another protocol. */
function replySealing(
  deps: RelayDeps,
  input: RelayInput,
  channelId: string,
  upstream: UpstreamProtocolId,
  passthrough: boolean,
  warnings: Warning[],
): ReasoningReplyContext | undefined {
  const reasoning = deps.reasoning;
  if (!reasoning || passthrough || upstream === input.clientProtocol) return undefined;
  const scope = input.reasoningScope;
  return {
    sealer: reasoning.sealer,
    upstream,
    client: input.clientProtocol,
    channelId,
    clientCarries: input.clientProtocol !== 'openai-responses' || input.carryReasoning === true || includesEncryptedReasoning(input.body),
    ...(scope === undefined ? {} : { remember: (callIds: string[], envelope: string) => reasoning.cache.remember(scope, callIds, envelope) }),
    warnings,
  };
}

/** Names the model on `response-start` (when the upstream did not), then seals reasoning for the client. */
function streamTransform(upstreamModel: string, sealing: ReasoningReplyContext | undefined): (event: StreamEvent) => StreamEvent[] {
  const name = nameStreamModel(upstreamModel);
  if (!sealing) return name;
  const seal = createReasoningStreamSealer(sealing);
  return (event) => name(event).flatMap(seal);
}

function includesEncryptedReasoning(body: Record<string, unknown>): boolean {
  return Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
}

function settleHealth(deps: RelayDeps, channel: Channel, lease: Lease, startedAt: number, error: GatewayError | undefined): void {
  const now = deps.runtime.now();
  if (!error) deps.health.recordSuccess(channel, lease, now - startedAt);
  // The host answered: a reply or stream that fails afterwards is about this model.
  else deps.health.recordFailure(channel, lease, { at: now, status: null, code: error.code, message: error.message }, 'model');
}

function noChannelError(deps: RelayDeps, input: RelayInput): GatewayError {
  const now = deps.runtime.now();
  const retryAts = input.channels.map((channel) => deps.health.retryAt(channel, input.publicModel));
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
  if (input.timing) headers['server-timing'] = input.timing.header();
  return headers;
}
