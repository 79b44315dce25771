import { GatewayError } from '../core/gateway-error.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import type { Lease } from './routing/channel-health.ts';
import { resolveUpstreamModel } from './channels/resolve-upstream-model.ts';
import type { AttemptOutcome } from './classify-attempt-failure.ts';
import type { RelayDeps } from './relay-deps.ts';

export interface ChannelAttempt {
  channel: Channel;
  lease: Lease;
  upstreamModel: string;
  /** The usage row's record of this attempt; the call sets its `status`. */
  attempt: UsageAttempt;
}

export interface ChannelsTried<T> {
  status: number;
  error: GatewayError | undefined;
  channel: Channel | undefined;
  upstreamModel: string | undefined;
  result: T | undefined;
  attempts: UsageAttempt[];
}

/**
 * The failover loop of a whole-reply request (embeddings, media): the channels in order, open
 * circuits skipped, at most `maxAttempts` real attempts, the next channel after a failure worth
 * retrying (the same channel again when only its key was refused and it has others), each attempt
 * reported to channel health. Only the attempt that answered is returned, so only it is billed.
 */
export async function tryChannelsInOrder<T>(
  deps: RelayDeps,
  input: { publicModel: string; channels: readonly Channel[]; clientSignal: AbortSignal; signal: AbortSignal; what: string },
  call: (attempt: ChannelAttempt) => Promise<{ kind: 'ok'; result: T } | AttemptOutcome>,
): Promise<ChannelsTried<T>> {
  const attempts: UsageAttempt[] = [];
  const queue = [...input.channels];
  let lastError: GatewayError | undefined;
  let realAttempts = 0;
  while (queue.length > 0 && realAttempts < deps.maxAttempts && !input.signal.aborted) {
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
    const outcome = await call({ channel, lease, upstreamModel, attempt });
    attempt.latencyMs = deps.runtime.now() - startedAt;
    if (outcome.kind === 'ok') {
      deps.health.recordSuccess(channel, lease, attempt.latencyMs);
      attempt.status = 200;
      return { channel, upstreamModel, status: 200, error: undefined, result: outcome.result, attempts };
    }
    attempt.errorCode = outcome.error.code;
    if (outcome.error.upstreamType !== undefined) attempt.upstreamType = outcome.error.upstreamType;
    lastError = outcome.error;
    if (!outcome.retryable) return { channel, upstreamModel, status: outcome.error.status, error: outcome.error, result: undefined, attempts };
    // One upstream key refused: the channel's other keys may still work.
    if (outcome.broken === true && channel.apiKeys.length > 1) queue.unshift(channel);
  }
  if (input.signal.aborted && !input.clientSignal.aborted && lastError === undefined) {
    lastError = new GatewayError('upstream_timeout', `The ${input.what} request for "${input.publicModel}" ran past the gateway's total time limit.`);
  }
  const error =
    lastError ??
    new GatewayError(
      'no_available_channel',
      `Every channel serving "${input.publicModel}" is temporarily out of service after repeated upstream failures; try again shortly.`,
      {
        retryAfterSeconds: 1,
      },
    );
  return { channel: undefined, upstreamModel: undefined, status: error.status, error, result: undefined, attempts };
}
