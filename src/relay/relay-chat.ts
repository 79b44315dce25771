import { GatewayError } from '../core/gateway-error.ts';
import type { Warning } from '../core/warning.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import { AttemptRace, type RaceResult } from './attempt-race.ts';
import { addWarnings, commitReply, openStream, sendPlainReply, streamResult, type ReplyResult } from './commit-reply.ts';
import { pipeStream } from './pipe-stream.ts';
import { reasoningRecall } from './reasoning/reasoning-recall.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayInput } from './relay-input.ts';
import { finishResult, type RelayResult } from './relay-result.ts';

export type { RelayDeps } from './relay-deps.ts';
export type { RelayInput } from './relay-input.ts';
export type { RelayResult } from './relay-result.ts';

/**
 * The one orchestrator: try the candidate channels in order until one answers, then stream or
 * send its reply in the client's protocol. Channels whose circuit is open are skipped; failures
 * before the client has seen a byte move on to the next channel when they are worth retrying,
 * and a stream that sends no first byte by its deadline is hedged with the next channel
 * (`attempt-race.ts`); after that the client gets its protocol's in-stream error. Every
 * attempt's outcome feeds the channel's health. The reply itself: `commit-reply.ts`.
 *
 * The request's one controller (input.controller) ends every upstream call: the client leaving,
 * the total deadline, or a malformed stream. (AbortSignal.any plus AbortSignal.timeout cost ~10×
 * more per request, and the timeout's timer outlived the request.) One async function, not a
 * wrapper awaiting the attempts: a committed stream suspends every frame above it for its whole
 * life, each with its generator, registers and promise (so the helpers it calls around
 * pipeStream are synchronous).
 */
export async function relayChat(deps: RelayDeps, input: RelayInput): Promise<RelayResult> {
  const deadline = input.controller.signal;
  const deadlineTimer = setTimeout(() => input.controller.abort(), deps.totalTimeoutMs);
  const attempts: UsageAttempt[] = [];
  const warnings = new Set<string>(input.warnings);
  try {
    // Dropped once a stream is committed (nothing retries it), so an open stream does not keep
    // the race's queue, attempt list and reasoning look-up.
    let race: AttemptRace | undefined = startRace(deps, input, attempts, warnings);
    while (!deadline.aborted && race !== undefined) {
      // The next attempt to commit to: channels in order, first-byte deadlines and hedging (attempt-race.ts).
      const next = await race.next();
      if (next.kind === 'exhausted') break;
      if (next.kind !== 'ready') return finishResult(uncommitted(next), warnings, attempts);
      // Committed to this channel: from here on the client sees its reply.
      const reply = commitReply(deps, input, next, warnings);
      if (next.outcome.first === undefined || next.outcome.rest === undefined) {
        const sent = await sendPlainReply(deps, input, next, reply, warnings);
        if ('retry' in sent) {
          // The reply was unusable and nothing reached the client yet: another channel may do better.
          race.failedAfterCommit(sent.retry);
          continue;
        }
        return finishResult(sent.result, warnings, attempts);
      }
      race = undefined;
      const stream = openStream(deps, input, next, reply);
      try {
        return finishResult(streamResult(deps, input, next, reply, await pipeStream(stream), warnings), warnings, attempts);
      } finally {
        deps.streams.open -= 1;
      }
    }
    return finishResult(exhausted(deps, input, race), warnings, attempts);
  } finally {
    clearTimeout(deadlineTimer);
  }
}

/** The race over the request's channels, sharing its attempt list, warnings and reasoning look-up. */
function startRace(deps: RelayDeps, input: RelayInput, attempts: UsageAttempt[], warnings: Set<string>): AttemptRace {
  const abortRequest = () => input.controller.abort();
  const noteWarnings = (list: readonly Warning[]) => addWarnings(list, warnings);
  return new AttemptRace(deps, input, input.controller.signal, abortRequest, attempts, noteWarnings, reasoningRecall(deps, input));
}

/** No channel answered (or the deadline passed): the last failure, or no channel at all. */
function exhausted(deps: RelayDeps, input: RelayInput, race: AttemptRace | undefined): ReplyResult {
  const lastFailure = race?.lastFailure;
  return lastFailure ? { status: lastFailure.error.status, error: lastFailure.error } : { status: 503, error: noChannelError(deps, input) };
}

/** A refusal, or a failure no other channel can mend, before anything was committed. */
function uncommitted(next: Extract<RaceResult, { kind: 'refused' | 'failed' }>): ReplyResult {
  if (next.kind === 'refused') return { status: next.error.status, error: next.error };
  const failed = next.outcome;
  return { status: failed.error.status, error: failed.error, channel: next.channel, upstreamModel: failed.upstreamModel, upstreamProtocol: failed.protocol };
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
