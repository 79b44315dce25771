import type { Channel } from '../domain/channel.ts';
import { GatewayError } from '../core/gateway-error.ts';
import type { Lease } from './routing/channel-health.ts';
import { classifyFailure, withMisconfiguredHint } from './routing/classify-failure.ts';
import type { RelayDeps } from './relay-deps.ts';

/** A failed whole-reply attempt: whether another channel is worth trying, and whether this channel's key is broken. */
export type AttemptOutcome = { kind: 'failed'; error: GatewayError; retryable: boolean; broken?: boolean };

/**
 * Same verdicts as a generation attempt: broken credentials, transient trouble, or the client's
 * own request. One exception: a provider throttling (429) a request this gateway split into
 * many calls was answering that one request's burst, so it neither counts against the channel ×
 * model circuit nor pauses the channel that every other key shares; the request moves on.
 */
export function classifyAttemptFailure(
  deps: RelayDeps,
  channel: Channel,
  lease: Lease,
  error: GatewayError,
  status: number | null,
  signal: AbortSignal,
  fannedOut: boolean,
  what: string,
): AttemptOutcome {
  const now = deps.runtime.now();
  if (signal.aborted) {
    deps.health.release(channel, lease);
    return {
      kind: 'failed',
      error: new GatewayError('upstream_timeout', `The ${what} request ran past the gateway's total time limit or the client went away.`),
      retryable: false,
    };
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
        deps.health.pause(
          channel,
          now + error.retryAfterSeconds * 1000,
          `upstream asked to wait ${error.retryAfterSeconds} s`,
          scope === 'model' ? lease.model : undefined,
        );
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
