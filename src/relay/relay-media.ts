import { getChannelAdapter } from '../channels/channel-registry.ts';
import type { MediaOperation } from '../channels/channel-adapter.ts';
import { channelSecrets } from '../channels/auth/channel-secrets.ts';
import { GatewayError, isGatewayError } from '../core/gateway-error.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { Lease } from '../routing/channel-health.ts';
import { toGatewayError } from '../upstream/upstream-client.ts';
import { classifyAttemptFailure, type AttemptOutcome } from './classify-attempt-failure.ts';
import { readUpstreamError } from './read-upstream-error.ts';
import type { RelayDeps } from './relay-deps.ts';
import { withRelayDeadline } from './with-relay-deadline.ts';
import { tryChannelsInOrder } from './try-channels-in-order.ts';

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
  return withRelayDeadline(deps, input.signal, (signal) => relayAttempts(deps, input, signal));
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
  return tryChannelsInOrder(deps, { publicModel: input.publicModel, channels: capable, clientSignal: input.signal, signal, what: `/v1/${input.operation}` }, ({ channel, lease, upstreamModel, attempt }) =>
    callChannel(deps, channel, lease, upstreamModel, attempt, input, signal),
  );
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
