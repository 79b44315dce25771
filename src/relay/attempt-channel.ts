import { GatewayError, isGatewayError } from '../core/gateway-error.ts';
import type { Warning } from '../core/warning.ts';
import type { ChannelAdapter, UpstreamTarget } from './channels/channel-adapter.ts';
import { getChannelAdapter } from './channels/channel-registry.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { UpstreamProtocolId } from '../protocols/protocol-codec.ts';
import { eventStreamToSse } from '../protocols/sse/event-stream-to-sse.ts';
import type { Lease } from './routing/channel-health.ts';
import { classifyFailure, withMisconfiguredHint, type FailureClass } from './routing/classify-failure.ts';
import { resolveUpstreamModel } from './channels/resolve-upstream-model.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import { toGatewayError, type UpstreamResponse } from './channels/upstream-client.ts';
import { readUpstreamError } from './read-upstream-error.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayInput } from './relay-input.ts';
import { planUpstreamRequest, takesPassthroughLane, type PlanInput, type UpstreamPlan } from './upstream-plan.ts';
import type { ReasoningRecall } from './reasoning/reasoning-recall.ts';
import { restoreContextFor } from './reasoning/restore-request-reasoning.ts';
import { channelSecrets } from './channels/auth/channel-secrets.ts';

interface AttemptBase {
  attempt: UsageAttempt;
  warnings: Warning[];
  upstreamModel: string;
  protocol: UpstreamProtocolId;
}

/** The upstream answered and (for streams) sent its first chunk: the relay can commit to it. */
export interface AttemptReady extends AttemptBase {
  kind: 'ready';
  plan: UpstreamPlan;
  response: UpstreamResponse;
  /** First body chunk of a stream; undefined for a non-streamed reply. */
  first: Uint8Array | undefined;
  /** The rest of a stream's body; undefined for a non-streamed reply (read whole by the relay). */
  rest: AsyncIterator<Uint8Array> | undefined;
  startedAt: number;
  /** Stops this upstream request (used when its stream turns out malformed; the relay is done then). */
  abort(): void;
}

export interface AttemptFailure extends AttemptBase {
  kind: 'failed';
  error: GatewayError;
  /** Worth trying another channel. */
  retryable: boolean;
  /** `broken` means the upstream refused this channel's credentials (or its key alone). */
  failureClass: FailureClass | 'aborted';
}

/**
 * One attempt on one channel, up to the point where the client would see a byte: build the
 * upstream request (passthrough or translated), send it, check the status and, for streams,
 * read the first chunk — an upstream that dies right after its headers can still be replaced.
 * Failures are classified and reported to the channel's health here. Throws only when the
 * client's own request cannot be translated (a GatewayError the client must see).
 */
export async function attemptChannel(
  deps: RelayDeps,
  input: RelayInput,
  channel: Channel,
  lease: Lease,
  /** This attempt's signal: the request's, or its own when the race may stop it alone. */
  signal: AbortSignal,
  abortRequest: () => void,
  /** The request's tool-call reasoning cache look-up (shared by its attempts); absent: none. */
  recall?: ReasoningRecall,
): Promise<AttemptReady | AttemptFailure> {
  const startedAt = deps.runtime.now();
  const adapter = getChannelAdapter(channel.provider);
  const { plan, upstreamModel, protocol } = await planAttempt(deps, input, channel, adapter, recall);
  const attempt: UsageAttempt = { channelId: channel.id, channelName: channel.name, status: null, errorCode: null, latencyMs: 0, keyIndex: lease.keyIndex };
  const warnings = attemptWarnings(plan, input);
  const failing: Failing = { deps, input, channel, lease, signal, startedAt, base: { attempt, warnings, upstreamModel, protocol } };
  const forwardedHeaders = plan.passthrough ? input.forwardedHeaders : {};
  const target = await buildTarget(adapter, {
    channel,
    apiKey: lease.apiKey,
    protocol,
    upstreamModel,
    stream: plan.stream,
    forwardedHeaders,
    body: plan.body,
    signal,
  });
  if (target instanceof GatewayError) return failed(failing, target, target.status === 401 ? 401 : null);
  let response: UpstreamResponse;
  input.timing?.mark('route');
  try {
    response = await deps.upstream.send({ url: target.url, headers: target.headers, body: target.body ?? plan.body, signal });
  } catch (error) {
    return failed(failing, toGatewayError(error), null);
  }
  input.timing?.mark('upstream');
  if (response.statusCode >= 400)
    return failed(failing, await readUpstreamError(response, getCodec(protocol), channelSecrets(channel), adapter), response.statusCode);
  const opened = plan.stream ? await openStream(adapter, response) : NOT_STREAMED;
  if (opened.error) return failed(failing, opened.error, response.statusCode);
  if (plan.stream) input.timing?.mark('first-chunk');
  noteAnswer(attempt, response, deps.runtime.now() - startedAt);
  // One literal of a fixed shape (an object spread here showed as ~1.5 % of busy time in profiles).
  return { attempt, warnings, upstreamModel, protocol, kind: 'ready', plan, response, first: opened.first, rest: opened.rest, startedAt, abort: abortRequest };
}

/** The upstream model and protocol for this channel, and the body: the passthrough lane, or the shared decode encoded (reasoning restored). */
async function planAttempt(deps: RelayDeps, input: RelayInput, channel: Channel, adapter: ChannelAdapter, recall: ReasoningRecall | undefined) {
  const upstreamModel = resolveUpstreamModel(channel, input.publicModel);
  const protocol = adapter.selectProtocol(channel, input.clientProtocol, upstreamModel);
  const restore = deps.reasoning ? restoreContextFor(deps.reasoning.sealer, channel.id, protocol, input.clientProtocol) : undefined;
  const planInput: PlanInput = {
    clientProtocol: input.clientProtocol,
    upstreamProtocol: protocol,
    upstreamCodec: getCodec(protocol),
    clientBody: input.body,
    ...(input.rawBody === undefined ? {} : { rawBody: input.rawBody }),
    stream: input.stream,
    upstreamModel,
    decodeClientRequest: input.decodeClientRequest,
    runtime: deps.runtime,
    // Converse included: Claude on Bedrock signs its thinking, sealed for clients like any upstream's.
    ...(restore ? { reasoning: restore } : {}),
  };
  const passthrough = takesPassthroughLane(planInput);
  // Only an upstream whose codec reads reasoning state takes any back (never Chat Completions).
  if (restore && recall && !passthrough && planInput.upstreamCodec.takeReasoningState !== undefined) {
    // One kv round trip per request, before the first translated attempt that could use it encodes its body.
    const kept = await recall();
    if (kept.size > 0) restore.recall = (callId) => kept.get(callId);
  }
  return { plan: planUpstreamRequest(planInput, passthrough), upstreamModel, protocol };
}

interface OpenedStream {
  first: Uint8Array | undefined;
  rest: AsyncIterator<Uint8Array> | undefined;
  error: GatewayError | undefined;
}
const NOT_STREAMED: OpenedStream = { first: undefined, rest: undefined, error: undefined };

/**
 * Reads a stream's first chunk: an upstream that dies right after its headers can still be
 * replaced. Bedrock frames its stream as AWS event-stream; the codecs read SSE messages.
 */
async function openStream(adapter: ChannelAdapter, response: UpstreamResponse): Promise<OpenedStream> {
  const body = response.body as AsyncIterable<Uint8Array>;
  const rest = (adapter.streamFraming === 'aws-event-stream' ? eventStreamToSse(body) : body)[Symbol.asyncIterator]();
  try {
    const next = await rest.next();
    if (next.done) return { first: undefined, rest: undefined, error: new GatewayError('upstream_invalid_response', 'The upstream sent an empty stream.') };
    return { first: next.value, rest, error: undefined };
  } catch (error) {
    return { first: undefined, rest: undefined, error: toGatewayError(error) };
  }
}

/** What a failed attempt is reported with. */
interface Failing {
  deps: RelayDeps;
  input: RelayInput;
  channel: Channel;
  lease: Lease;
  signal: AbortSignal;
  startedAt: number;
  base: AttemptBase;
}

/**
 * The attempt failed: classified (`classifyFailure`) and reported to the channel's health. An
 * abort that is not the relay's first-byte deadline (the client left, the total deadline passed
 * or another attempt won) is not the channel's fault, and nothing to retry.
 */
function failed({ deps, input, channel, lease, signal, startedAt, base }: Failing, failure: GatewayError, upstreamStatus: number | null): AttemptFailure {
  const { attempt } = base;
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (signal.aborted && !isGatewayError(reason)) {
    deps.health.release(channel, lease);
    attempt.errorCode = 'upstream_timeout';
    attempt.latencyMs = deps.runtime.now() - startedAt;
    return { ...base, kind: 'failed', error: abortError(input), retryable: false, failureClass: 'aborted' };
  }
  // The relay stopped waiting for this attempt's first byte: a timeout of this channel × model.
  const error = signal.aborted ? (reason as GatewayError) : failure;
  const status = signal.aborted ? null : upstreamStatus;
  const now = deps.runtime.now();
  attempt.status = status;
  attempt.errorCode = error.code;
  if (error.upstreamType !== undefined) attempt.upstreamType = error.upstreamType;
  attempt.latencyMs = now - startedAt;
  const { failureClass, scope } = classifyFailure(error, status, deps.retryStatuses);
  const lastError = { at: now, status, code: error.code, message: error.message };
  switch (failureClass) {
    case 'broken':
      deps.health.recordBroken(channel, lease, lastError);
      return { ...base, kind: 'failed', error, retryable: true, failureClass };
    case 'transient':
      deps.health.recordFailure(channel, lease, lastError, scope);
      if (error.retryAfterSeconds !== undefined) {
        const reason = `upstream asked to wait ${error.retryAfterSeconds} s`;
        deps.health.pause(channel, now + error.retryAfterSeconds * 1000, reason, scope === 'model' ? lease.model : undefined);
      }
      return { ...base, kind: 'failed', error, retryable: true, failureClass };
    case 'misconfigured':
      deps.health.recordFailure(channel, lease, withMisconfiguredHint(lastError), scope);
      return { ...base, kind: 'failed', error, retryable: true, failureClass };
    case 'request':
      deps.health.release(channel, lease);
      return { ...base, kind: 'failed', error, retryable: false, failureClass };
    default: {
      const unreachable: never = failureClass;
      return unreachable;
    }
  }
}

function abortError(input: RelayInput): GatewayError {
  return new GatewayError('upstream_timeout', `The request for "${input.publicModel}" ran past the gateway's total time limit or the client went away.`);
}

/** Betas reach an upstream only on the passthrough lane; a translated one cannot honour them: say so. */
function attemptWarnings(plan: UpstreamPlan, input: RelayInput): Warning[] {
  const betas = input.forwardedHeaders['anthropic-beta'];
  return !plan.passthrough && betas !== undefined ? [...plan.warnings, droppedBetas(betas)] : plan.warnings;
}

/**
 * The upstream request as the channel's kind builds it. Cloud kinds mint (Vertex) or sign
 * (Bedrock) credentials here; a refused credential comes back with status 401 so it counts as
 * the channel's key being broken.
 */
async function buildTarget(adapter: ChannelAdapter, request: Parameters<ChannelAdapter['buildRequest']>[0]): Promise<UpstreamTarget | GatewayError> {
  try {
    return await adapter.buildRequest(request);
  } catch (error) {
    return toGatewayError(error);
  }
}

/** The upstream answered: its status, the time to its answer and its own request id go on the attempt's row. */
function noteAnswer(attempt: UsageAttempt, response: UpstreamResponse, latencyMs: number): void {
  attempt.status = response.statusCode;
  attempt.latencyMs = latencyMs;
  const upstreamRequestId = response.headers['x-request-id'] ?? response.headers['request-id'] ?? response.headers['x-amzn-requestid'];
  if (typeof upstreamRequestId === 'string') attempt.upstreamRequestId = upstreamRequestId.slice(0, 200);
}

function droppedBetas(betas: string): Warning {
  return {
    type: 'unsupported',
    feature: 'anthropic-beta',
    detail: `The anthropic-beta flags (${betas}) were not sent: this lane translates the request, and betas reach an upstream only with a body passed through unchanged.`,
  };
}
