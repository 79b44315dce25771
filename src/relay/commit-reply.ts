import type { ChatResponse } from '../core/chat-response.ts';
import type { GatewayError } from '../core/gateway-error.ts';
import type { StreamEvent } from '../core/stream-event.ts';
import type { Usage } from '../core/usage.ts';
import { formatWarning, type Warning } from '../core/warning.ts';
import type { Channel } from '../domain/channel.ts';
import { channelSecrets } from './channels/auth/channel-secrets.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { ProtocolCodec, UpstreamProtocolId } from '../protocols/protocol-codec.ts';
import { replyUsageLosses } from '../protocols/reply-usage-losses.ts';
import { createReasoningStreamSealer, sealReplyReasoning, type ReasoningReplyContext } from './reasoning/seal-reply-reasoning.ts';
import type { Lease } from './routing/channel-health.ts';
import type { AttemptFailure, AttemptReady } from './attempt-channel.ts';
import { nameReplyModel, nameStreamModel } from './name-reply-model.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayInput } from './relay-input.ts';
import type { RelayResult } from './relay-result.ts';
import { sendReply } from './send-reply.ts';
import type { PipeStreamInput, StreamOutcome } from './stream-lane.ts';

/** The attempt the relay committed to: its channel, its upstream key's lease and its outcome. */
export interface Committed {
  channel: Channel;
  lease: Lease;
  outcome: AttemptReady;
}

/** What a committed reply needs, whether plain or streamed: codecs, headers, its warnings and how its reasoning is sealed. */
export interface CommittedReply {
  clientCodec: ProtocolCodec;
  upstreamCodec: ProtocolCodec;
  headers: Record<string, string>;
  replyWarnings: Warning[];
  sealing: ReasoningReplyContext | undefined;
}

/** What the relay result says of a committed reply, once it ended. */
export type ReplyResult = Partial<RelayResult> & Pick<RelayResult, 'status' | 'error'>;

/** Tells the pipeline which channel, key and lane answer (before the first byte), and prepares the reply. */
export function commitReply(deps: RelayDeps, input: RelayInput, { channel, lease, outcome }: Committed, warnings: Set<string>): CommittedReply {
  input.onCommit?.({ channel, keyIndex: lease.keyIndex, apiKey: lease.apiKey, passthrough: outcome.plan.passthrough, protocol: outcome.plan.protocol });
  const replyWarnings: Warning[] = [];
  const clientCodec = getCodec(input.clientProtocol);
  return {
    clientCodec,
    upstreamCodec: getCodec(outcome.plan.protocol),
    headers: replyHeaders(input, warnings, outcome.plan.stream),
    replyWarnings,
    sealing: replySealing(deps, input, clientCodec, channel.id, outcome.plan.protocol, outcome.plan.passthrough, replyWarnings),
  };
}

/**
 * Sends a plain reply (decoded before its headers go out, so its reply-side warnings are in the
 * header too). An unusable reply that reached no client byte is handed back as a failure to retry
 * on another channel; a reply too large for the gateway is what the request asked for: not the
 * channel's fault, and no other channel would do better.
 */
export async function sendPlainReply(
  deps: RelayDeps,
  input: RelayInput,
  { channel, lease, outcome }: Committed,
  reply: CommittedReply,
  warnings: Set<string>,
): Promise<{ retry: AttemptFailure } | { result: ReplyResult }> {
  const { headers, replyWarnings, sealing } = reply;
  // (Only a plain reply makes this closure: what a stream creates here lives as long as the stream.)
  const transformResponse = (response: ChatResponse): ChatResponse => {
    const named = nameReplyModel(response, outcome.upstreamModel);
    const sealed = sealing ? sealReplyReasoning(named, sealing) : named;
    noteUsageLosses(replyWarnings, input, outcome.plan.passthrough, sealed.usage);
    addWarnings(replyWarnings, warnings);
    if (warnings.size > 0) headers['x-switchyard-warnings'] = [...warnings].join(', ');
    return sealed;
  };
  const sent = await sendReply({
    response: outcome.response,
    passthrough: outcome.plan.passthrough,
    clientCodec: reply.clientCodec,
    upstreamCodec: reply.upstreamCodec,
    runtime: deps.runtime,
    writer: input.writer,
    headers,
    ...(deps.replyLimits ? { limits: deps.replyLimits } : {}),
    encoderOptions: input.encoderOptions,
    transformResponse,
    ...(input.quoteCost ? { quoteCost: input.quoteCost, reportCost: input.reportCost === true } : {}),
  });
  addWarnings(replyWarnings, warnings);
  const tooLarge = sent.error?.channelBlameless === true;
  settleHealth(deps, channel, lease, outcome.startedAt, tooLarge ? undefined : sent.error);
  if (sent.error && !input.writer.started && !tooLarge)
    return { retry: { ...outcome, kind: 'failed', error: sent.error, retryable: true, failureClass: 'transient' } };
  const status = sent.error ? sent.error.status : 200;
  return {
    result: {
      channel,
      upstreamModel: outcome.upstreamModel,
      upstreamProtocol: outcome.plan.protocol,
      status,
      error: sent.error,
      usage: sent.usage,
      deliveredChars: sent.deliveredChars,
    },
  };
}

/**
 * Commits to a stream: its headers go out, nothing will retry it, so the request's body (and the
 * upstream's copy of it) need not live as long as the stream does. Counts it open (the caller
 * counts it closed) and returns what `pipeStream` moves.
 */
export function openStream(deps: RelayDeps, input: RelayInput, { channel, outcome }: Committed, reply: CommittedReply): PipeStreamInput {
  input.writer.writeHead(200, reply.headers);
  outcome.plan.body = '';
  input.releaseRequest?.();
  deps.streams.open += 1;
  return {
    firstChunk: takeFirstChunk(outcome),
    rest: outcome.rest as AsyncIterator<Uint8Array>,
    passthrough: outcome.plan.passthrough,
    clientCodec: reply.clientCodec,
    upstreamCodec: reply.upstreamCodec,
    encoderOptions: input.encoderOptions,
    runtime: deps.runtime,
    writer: input.writer,
    keepAliveMs: deps.keepAliveMs,
    abortUpstream: outcome.abort,
    secrets: channelSecrets(channel),
    ...(deps.replyLimits ? { limits: deps.replyLimits } : {}),
    transformEvents: streamTransform(outcome.upstreamModel, reply.sealing),
  };
}

/** A finished stream's result; a client that went away, or a stream longer than the gateway carries, is not the channel's fault. */
export function streamResult(
  deps: RelayDeps,
  input: RelayInput,
  { channel, lease, outcome }: Committed,
  reply: CommittedReply,
  streamed: StreamOutcome,
  warnings: Set<string>,
): ReplyResult {
  noteUsageLosses(reply.replyWarnings, input, outcome.plan.passthrough, streamed.usage);
  addWarnings(reply.replyWarnings, warnings);
  settleHealth(deps, channel, lease, outcome.startedAt, input.writer.clientGone || streamed.error?.channelBlameless === true ? undefined : streamed.error);
  return {
    channel,
    upstreamModel: outcome.upstreamModel,
    upstreamProtocol: outcome.plan.protocol,
    status: 200,
    error: streamed.error,
    usage: streamed.usage,
    deliveredChars: streamed.deliveredChars,
  };
}

/** Adds warnings (an attempt's, or the reply's) to the request's set, in their header form. */
export function addWarnings(list: readonly Warning[], warnings: Set<string>): void {
  for (const warning of list) warnings.add(formatWarning(warning));
}

/** Translated replies can lose what the client's protocol has no field for (reply-side warnings). */
function noteUsageLosses(replyWarnings: Warning[], input: RelayInput, passthrough: boolean, usage: Usage | undefined): void {
  if (!passthrough) replyWarnings.push(...replyUsageLosses(input.clientProtocol, usage));
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
  clientCodec: ProtocolCodec,
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
    // A turn kept for replay carries its reasoning state whether the client asked or not.
    clientCarries: input.carryReasoning === true || (clientCodec.asksForReasoningState?.(input.body) ?? true),
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

function settleHealth(deps: RelayDeps, channel: Channel, lease: Lease, startedAt: number, error: GatewayError | undefined): void {
  const now = deps.runtime.now();
  if (!error) deps.health.recordSuccess(channel, lease, now - startedAt);
  // The host answered: a reply or stream that fails afterwards is about this model.
  else deps.health.recordFailure(channel, lease, { at: now, status: null, code: error.code, message: error.message }, 'model');
}

function replyHeaders(input: RelayInput, warnings: Set<string>, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    ...input.replyHeaders,
    'content-type': stream && input.encoderOptions.format !== 'json-array' ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8',
  };
  if (stream) {
    headers['cache-control'] = 'no-cache';
    headers['x-accel-buffering'] = 'no';
  }
  if (warnings.size > 0) headers['x-switchyard-warnings'] = [...warnings].join(', ');
  if (input.timing) headers['server-timing'] = input.timing.header();
  return headers;
}
