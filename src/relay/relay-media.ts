import { getChannelAdapter } from '../channels/channel-registry.ts';
import type { MediaOperation } from '../channels/channel-adapter.ts';
import { channelSecrets } from '../channels/auth/channel-secrets.ts';
import { GatewayError, isGatewayError } from '../core/gateway-error.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { Lease } from '../routing/channel-health.ts';
import { resolveUpstreamModel } from '../routing/resolve-upstream-model.ts';
import { toGatewayError } from '../upstream/upstream-client.ts';
import { classifyAttemptFailure, type AttemptOutcome } from './classify-attempt-failure.ts';
import { readUpstreamError } from './read-upstream-error.ts';
import type { RelayDeps } from './relay-deps.ts';

export interface MediaRelayInput {
  operation: MediaOperation;
  /** The client's body, already checked by its codec; `model` is rewritten per channel. */
  body: Record<string, unknown>;
  publicModel: string;
  /** Candidate channels in attempt order (kinds that do not serve the operation are skipped). */
  channels: readonly Channel[];
  signal: AbortSignal;
}

export interface MediaRelayResult {
  status: number;
  error: GatewayError | undefined;
  channel: Channel | undefined;
  upstreamModel: string | undefined;
  /** The upstream's JSON reply, as it sent it. */
  result: Record<string, unknown> | undefined;
  attempts: UsageAttempt[];
}

type Outcome = { kind: 'ok'; result: Record<string, unknown> } | AttemptOutcome;

/**
 * A whole-reply media request (an image generation) over the same channels, health and failover
 * rules as generation: try the channels in order, skip open circuits, move on after a failure
 * worth retrying, report each attempt to channel health. Only the attempt that answered is
 * returned, so only it is billed: a failed-over request costs one reply.
 */
export async function relayMedia(deps: RelayDeps, input: MediaRelayInput): Promise<MediaRelayResult> {
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

async function relayAttempts(deps: RelayDeps, input: MediaRelayInput, signal: AbortSignal): Promise<MediaRelayResult> {
  const attempts: UsageAttempt[] = [];
  const finish = (partial: Partial<MediaRelayResult> & Pick<MediaRelayResult, 'status' | 'error'>): MediaRelayResult => ({
    channel: undefined,
    upstreamModel: undefined,
    result: undefined,
    attempts,
    ...partial,
  });
  const capable = input.channels.filter((channel) => getChannelAdapter(channel.provider).media?.operations.includes(input.operation) === true);
  if (capable.length === 0) {
    const kinds = [...new Set(input.channels.map((channel) => channel.provider))].join(', ');
    const error = new GatewayError('invalid_request', `Model "${input.publicModel}" is served only by ${kinds} channels, which have no /v1/${input.operation} endpoint.`, { param: 'model' });
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
    const upstreamModel = resolveUpstreamModel(channel, input.publicModel);
    const startedAt = deps.runtime.now();
    const attempt: UsageAttempt = { channelId: channel.id, channelName: channel.name, status: null, errorCode: null, latencyMs: 0 };
    attempts.push(attempt);
    const outcome = await callChannel(deps, channel, lease, upstreamModel, attempt, input, signal);
    attempt.latencyMs = deps.runtime.now() - startedAt;
    if (outcome.kind === 'ok') {
      deps.health.recordSuccess(channel, lease, attempt.latencyMs);
      attempt.status = 200;
      return finish({ channel, upstreamModel, status: 200, error: undefined, result: outcome.result });
    }
    attempt.errorCode = outcome.error.code;
    if (outcome.error.upstreamType !== undefined) attempt.upstreamType = outcome.error.upstreamType;
    lastError = outcome.error;
    if (!outcome.retryable) return finish({ channel, upstreamModel, status: outcome.error.status, error: outcome.error });
    if (outcome.broken === true && channel.apiKeys.length > 1) queue.unshift(channel);
  }
  if (signal.aborted && !input.signal.aborted && lastError === undefined) {
    lastError = new GatewayError('upstream_timeout', `The /v1/${input.operation} request for "${input.publicModel}" ran past the gateway's total time limit.`);
  }
  if (lastError) return finish({ status: lastError.status, error: lastError });
  const error = new GatewayError('no_available_channel', `Every channel serving "${input.publicModel}" is temporarily out of service after repeated upstream failures; try again shortly.`, {
    retryAfterSeconds: 1,
  });
  return finish({ status: error.status, error });
}

async function callChannel(
  deps: RelayDeps,
  channel: Channel,
  lease: Lease,
  upstreamModel: string,
  attempt: UsageAttempt,
  input: MediaRelayInput,
  signal: AbortSignal,
): Promise<Outcome> {
  const body = JSON.stringify({ ...input.body, model: upstreamModel });
  let status: number | null = null;
  let error: GatewayError;
  try {
    const target = await getChannelAdapter(channel.provider).media!.buildRequest({ channel, apiKey: lease.apiKey, upstreamModel, operation: input.operation });
    const response = await deps.upstream.send({ url: target.url, headers: target.headers, body: target.body ?? body, signal });
    status = response.statusCode;
    if (response.statusCode >= 400) {
      error = await readUpstreamError(response, getCodec('openai-chat'), channelSecrets(channel), getChannelAdapter(channel.provider));
    } else {
      const parsed: unknown = await response.body.json().catch(() => undefined);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return { kind: 'ok', result: parsed as Record<string, unknown> };
      error = new GatewayError('upstream_invalid_response', `The upstream sent a /v1/${input.operation} reply that is not a JSON object.`);
    }
  } catch (thrown) {
    error = isGatewayError(thrown) ? thrown : toGatewayError(thrown);
    if (error.status === 401) status = 401;
  }
  attempt.status = status;
  return classifyAttemptFailure(deps, channel, lease, error, status, signal, false, `/v1/${input.operation}`);
}
