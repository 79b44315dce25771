import { getChannelAdapter } from './channels/channel-registry.ts';
import type { EmbeddingRequest, EmbeddingResult } from '../core/embedding.ts';
import { GatewayError, isGatewayError } from '../core/gateway-error.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { EmbeddingUpstreamWire } from '../protocols/embeddings/index.ts';
import type { Lease } from './routing/channel-health.ts';
import { classifyAttemptFailure as classify, type AttemptOutcome } from './classify-attempt-failure.ts';
import { toGatewayError } from './channels/upstream-client.ts';
import { readUpstreamError } from './read-upstream-error.ts';
import type { RelayDeps } from './relay-deps.ts';
import { withRelayDeadline } from './with-relay-deadline.ts';
import { tryChannelsInOrder } from './try-channels-in-order.ts';
import { channelSecrets } from './channels/auth/channel-secrets.ts';

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

type Outcome = { kind: 'ok'; result: EmbeddingResult } | AttemptOutcome;

/**
 * Embeddings over the same channels, health and failover rules as generation: try the
 * channels in order, skip open circuits, move on after a failure worth retrying (before any
 * byte reached the client — an embeddings reply is written whole, so always), and report each
 * attempt to channel health. A request larger than one upstream call allows is split into
 * calls on the same channel, in order, and the vectors joined.
 */
export async function relayEmbeddings(deps: RelayDeps, input: EmbeddingRelayInput): Promise<EmbeddingRelayResult> {
  return withRelayDeadline(deps, input.signal, (signal) => relayAttempts(deps, input, signal));
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
    const error = new GatewayError('invalid_request', `Model "${input.publicModel}" is served only by ${kinds} channels, which have no embeddings endpoint.`, {
      param: 'model',
    });
    return finish({ status: error.status, error });
  }
  const tried = await tryChannelsInOrder(
    deps,
    { publicModel: input.publicModel, channels: capable, clientSignal: input.signal, signal, what: 'embeddings' },
    ({ channel, lease, upstreamModel, attempt }) =>
      embedOnChannel(
        deps,
        { channel, lease, wire: getChannelAdapter(channel.provider).embeddings!.wire(upstreamModel), upstreamModel, attempt },
        input,
        signal,
      ),
  );
  const upstreamProtocol =
    tried.channel === undefined || tried.upstreamModel === undefined
      ? undefined
      : getChannelAdapter(tried.channel.provider).embeddings!.wire(tried.upstreamModel).id;
  return finish({ ...tried, upstreamProtocol });
}

interface ChannelCall {
  channel: Channel;
  lease: Lease;
  wire: EmbeddingUpstreamWire;
  upstreamModel: string;
  attempt: UsageAttempt;
}

/** Every call one channel needs for the request, FAN_OUT at a time; the first failure ends them. */
async function embedOnChannel(
  deps: RelayDeps,
  { channel, lease, wire, upstreamModel, attempt }: ChannelCall,
  input: EmbeddingRelayInput,
  signal: AbortSignal,
): Promise<Outcome> {
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
    return classify(deps, channel, lease, failure.error, failure.status, signal, batches.length > 1, 'embeddings');
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
      return {
        error: await readUpstreamError(response, getCodec(wire.errorProtocol), channelSecrets(channel), getChannelAdapter(channel.provider)),
        status: response.statusCode,
      };
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
