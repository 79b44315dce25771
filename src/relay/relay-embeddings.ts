import { getChannelAdapter } from '../channels/channel-registry.ts';
import type { EmbeddingRequest, EmbeddingResult } from '../core/embedding.ts';
import { GatewayError, isGatewayError } from '../core/gateway-error.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { EmbeddingUpstreamWire } from '../protocols/embeddings/index.ts';
import type { Lease } from '../routing/channel-health.ts';
import { classifyFailure, withMisconfiguredHint } from '../routing/classify-failure.ts';
import { resolveUpstreamModel } from '../routing/resolve-upstream-model.ts';
import { toGatewayError } from '../upstream/upstream-client.ts';
import { readUpstreamError } from './read-upstream-error.ts';
import type { RelayDeps } from './relay-deps.ts';
import { channelSecrets } from '../channels/auth/channel-secrets.ts';

/** Calls one channel makes at once when it has to fan a batch out (Titan takes one text a call). */
const FAN_OUT = 4;

export interface EmbeddingRelayInput {
  request: EmbeddingRequest;
  publicModel: string;
  /** Candidate channels in attempt order (kinds without embeddings are skipped). */
  channels: readonly Channel[];
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /**
   * Called before a channel splits the request into several upstream calls, with the number of
   * calls beyond the first: the key's rate limits count them (it throws a 429 when they do not fit).
   */
  beforeFanOut?: (extraCalls: number) => Promise<void>;
}

export interface EmbeddingRelayResult {
  status: number;
  error: GatewayError | undefined;
  channel: Channel | undefined;
  upstreamModel: string | undefined;
  /** The embeddings wire format the serving channel spoke. */
  upstreamProtocol: string | undefined;
  result: EmbeddingResult | undefined;
  warnings: string[];
  attempts: UsageAttempt[];
}

type Outcome = { kind: 'ok'; result: EmbeddingResult } | { kind: 'failed'; error: GatewayError; retryable: boolean; broken?: boolean };

/**
 * Embeddings over the same channels, health and failover rules as generation: try the
 * channels in order, skip open circuits, move on after a failure worth retrying (before any
 * byte reached the client — an embeddings reply is written whole, so always), and report each
 * attempt to channel health. A request larger than one upstream call allows is split into
 * calls on the same channel, in order, and the vectors joined.
 */
export async function relayEmbeddings(deps: RelayDeps, input: EmbeddingRelayInput): Promise<EmbeddingRelayResult> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (input.signal.aborted) abort();
  input.signal.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(abort, deps.totalTimeoutMs);
  try {
    return await relayAttempts(deps, input, controller.signal);
  } finally {
    clearTimeout(timer);
    input.signal.removeEventListener('abort', abort);
  }
}

async function relayAttempts(deps: RelayDeps, input: EmbeddingRelayInput, signal: AbortSignal): Promise<EmbeddingRelayResult> {
  const attempts: UsageAttempt[] = [];
  const finish = (partial: Partial<EmbeddingRelayResult> & Pick<EmbeddingRelayResult, 'status' | 'error'>): EmbeddingRelayResult => ({
    channel: undefined,
    upstreamModel: undefined,
    upstreamProtocol: undefined,
    result: undefined,
    warnings: [],
    attempts,
    ...partial,
  });
  const capable = input.channels.filter((channel) => getChannelAdapter(channel.provider).embeddings !== undefined);
  if (capable.length === 0) {
    const kinds = [...new Set(input.channels.map((channel) => channel.provider))].join(', ');
    const error = new GatewayError('invalid_request', `Model "${input.publicModel}" is served only by ${kinds} channels, which have no embeddings endpoint.`, { param: 'model' });
    return finish({ status: error.status, error });
  }
  const queue = [...capable];
  let lastError: GatewayError | undefined;
  let realAttempts = 0;
  while (queue.length > 0 && realAttempts < deps.maxAttempts && !signal.aborted) {
    const channel = queue.shift() as Channel;
    const lease = deps.health.acquire(channel, { model: input.publicModel });
    if (!lease) {
      attempts.push({ channelId: channel.id, channelName: channel.name, status: null, errorCode: 'circuit_open', latencyMs: 0 });
      continue;
    }
    realAttempts += 1;
    const embeddings = getChannelAdapter(channel.provider).embeddings!;
    const upstreamModel = resolveUpstreamModel(channel, input.publicModel);
    const wire = embeddings.wire(upstreamModel);
    const startedAt = deps.runtime.now();
    const attempt: UsageAttempt = { channelId: channel.id, channelName: channel.name, status: null, errorCode: null, latencyMs: 0 };
    attempts.push(attempt);
    const outcome = await embedOnChannel(deps, { channel, lease, wire, upstreamModel, attempt }, input, signal);
    attempt.latencyMs = deps.runtime.now() - startedAt;
    const base = { channel, upstreamModel, upstreamProtocol: wire.id };
    if (outcome.kind === 'ok') {
      deps.health.recordSuccess(channel, lease, attempt.latencyMs);
      attempt.status = 200;
      return finish({ ...base, status: 200, error: undefined, result: outcome.result });
    }
    attempt.errorCode = outcome.error.code;
    if (outcome.error.upstreamType !== undefined) attempt.upstreamType = outcome.error.upstreamType;
    lastError = outcome.error;
    if (!outcome.retryable) return finish({ ...base, status: outcome.error.status, error: outcome.error });
    // One upstream key refused: the channel's other keys may still work.
    if (outcome.broken === true && channel.apiKeys.length > 1) queue.unshift(channel);
  }
  if (signal.aborted && !input.signal.aborted && lastError === undefined) {
    lastError = new GatewayError('upstream_timeout', `The embeddings request for "${input.publicModel}" ran past the gateway's total time limit.`);
  }
  if (lastError) return finish({ status: lastError.status, error: lastError });
  const error = new GatewayError('no_available_channel', `Every channel serving "${input.publicModel}" is temporarily out of service after repeated upstream failures; try again shortly.`, {
    retryAfterSeconds: 1,
  });
  return finish({ status: error.status, error });
}

interface ChannelCall {
  channel: Channel;
  lease: Lease;
  wire: EmbeddingUpstreamWire;
  upstreamModel: string;
  attempt: UsageAttempt;
}

/** Every call one channel needs for the request, FAN_OUT at a time; the first failure ends them. */
async function embedOnChannel(deps: RelayDeps, { channel, lease, wire, upstreamModel, attempt }: ChannelCall, input: EmbeddingRelayInput, signal: AbortSignal): Promise<Outcome> {
  const request = input.request;
  const size = Math.max(1, wire.maxInputsPerCall(upstreamModel));
  const batches: string[][] = [];
  for (let start = 0; start < request.inputs.length; start += size) batches.push(request.inputs.slice(start, start + size));
  if (batches.length > 1 && input.beforeFanOut) {
    try {
      await input.beforeFanOut(batches.length - 1);
    } catch (error) {
      // The key's own limit: nothing was sent, and no other channel would change it.
      deps.health.release(channel, lease);
      return { kind: 'failed', error: toGatewayError(error), retryable: false };
    }
  }
  const results: EmbeddingResult[] = new Array(batches.length);
  let next = 0;
  let failure: { error: GatewayError; status: number | null } | undefined;
  const worker = async () => {
    while (failure === undefined && next < batches.length) {
      const index = next;
      next += 1;
      const called = await callOnce(deps, channel, lease, wire, upstreamModel, { ...request, inputs: batches[index]! }, signal);
      if ('error' in called) failure ??= called;
      else results[index] = called.result;
    }
  };
  await Promise.all(Array.from({ length: Math.min(FAN_OUT, batches.length) }, worker));
  if (failure !== undefined) {
    attempt.status = failure.status;
    return classify(deps, channel, lease, failure.error, failure.status, signal, batches.length > 1);
  }
  let tokens: number | undefined = 0;
  for (const result of results) tokens = tokens === undefined || result.inputTokens === undefined ? undefined : tokens + result.inputTokens;
  return { kind: 'ok', result: { vectors: results.flatMap((result) => result.vectors), inputTokens: tokens } };
}

async function callOnce(
  deps: RelayDeps,
  channel: Channel,
  lease: Lease,
  wire: EmbeddingUpstreamWire,
  upstreamModel: string,
  request: EmbeddingRequest,
  signal: AbortSignal,
): Promise<{ result: EmbeddingResult } | { error: GatewayError; status: number | null }> {
  const body = wire.encodeRequest(request, upstreamModel);
  let target;
  try {
    target = await getChannelAdapter(channel.provider).embeddings!.buildRequest({ channel, apiKey: lease.apiKey, upstreamModel, body, signal });
  } catch (error) {
    const gatewayError = toGatewayError(error);
    return { error: gatewayError, status: gatewayError.status === 401 ? 401 : null };
  }
  try {
    const response = await deps.upstream.send({ url: target.url, headers: target.headers, body: target.body ?? body, signal });
    if (response.statusCode >= 400) {
      return { error: await readUpstreamError(response, getCodec(wire.errorProtocol), channelSecrets(channel), getChannelAdapter(channel.provider)), status: response.statusCode };
    }
    let parsed: unknown;
    try {
      parsed = await response.body.json();
    } catch {
      return { error: new GatewayError('upstream_invalid_response', 'The upstream sent an embeddings reply that is not JSON.'), status: response.statusCode };
    }
    const headerTokens = Number(response.headers['x-amzn-bedrock-input-token-count']);
    return { result: wire.decodeResponse(parsed, request.inputs.length, Number.isInteger(headerTokens) && headerTokens >= 0 ? headerTokens : undefined) };
  } catch (error) {
    return { error: isGatewayError(error) ? error : toGatewayError(error), status: null };
  }
}

/**
 * Same verdicts as a generation attempt: broken credentials, transient trouble, or the client's
 * own request. One exception: a provider throttling (429) a request this gateway split into
 * many calls was answering that one request's burst, so it neither counts against the channel ×
 * model circuit nor pauses the channel that every other key shares; the request moves on.
 */
function classify(deps: RelayDeps, channel: Channel, lease: Lease, error: GatewayError, status: number | null, signal: AbortSignal, fannedOut: boolean): Outcome {
  const now = deps.runtime.now();
  if (signal.aborted) {
    deps.health.release(channel, lease);
    return { kind: 'failed', error: new GatewayError('upstream_timeout', 'The embeddings request ran past the gateway\'s total time limit or the client went away.'), retryable: false };
  }
  const { failureClass, scope } = classifyFailure(error, status, deps.retryStatuses);
  if (fannedOut && status === 429 && failureClass === 'transient') {
    deps.health.release(channel, lease);
    return { kind: 'failed', error, retryable: true };
  }
  const lastError = { at: now, status, code: error.code, message: error.message };
  switch (failureClass) {
    case 'broken':
      deps.health.recordBroken(channel, lease, lastError);
      return { kind: 'failed', error, retryable: true, broken: true };
    case 'transient':
      deps.health.recordFailure(channel, lease, lastError, scope);
      if (error.retryAfterSeconds !== undefined) {
        deps.health.pause(channel, now + error.retryAfterSeconds * 1000, `upstream asked to wait ${error.retryAfterSeconds} s`, scope === 'model' ? lease.model : undefined);
      }
      return { kind: 'failed', error, retryable: true };
    case 'misconfigured':
      deps.health.recordFailure(channel, lease, withMisconfiguredHint(lastError), scope);
      return { kind: 'failed', error, retryable: true };
    case 'request':
      deps.health.release(channel, lease);
      return { kind: 'failed', error, retryable: false };
    default: {
      const unreachable: never = failureClass;
      return unreachable;
    }
  }
}
