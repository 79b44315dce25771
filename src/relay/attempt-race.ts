import { GatewayError, isGatewayError } from '../core/gateway-error.ts';
import type { Warning } from '../core/warning.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import type { Lease } from './routing/channel-health.ts';
import { attemptChannel, type AttemptFailure, type AttemptReady } from './attempt-channel.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayInput } from './relay-input.ts';
import type { ReasoningRecall } from './reasoning/reasoning-recall.ts';
import { sleepUnlessAborted } from './sleep-unless-aborted.ts';
import type { RaceEvent, RunningAttempt } from './running-attempt.ts';

/** What the race gives the relay: an attempt to commit to, or why there is none. */
export type RaceResult =
  | { kind: 'ready'; channel: Channel; lease: Lease; outcome: AttemptReady }
  /** A failure another channel would not fix (the request's own fault, the deadline, the client gone). */
  | { kind: 'failed'; channel: Channel; outcome: AttemptFailure }
  /** The client's body cannot be translated for this channel: the same everywhere. */
  | { kind: 'refused'; error: GatewayError }
  /** No candidate left; `lastFailure` says why, when one was tried. */
  | { kind: 'exhausted' };

/**
 * The attempts of one request, up to the one the client will be served from. Channels are
 * tried in order; a streamed attempt that has not sent its first byte by its deadline
 * (`FirstByteDeadlines`, from that channel × model's observed times) no longer holds the
 * caller alone: with hedging the next candidate starts beside it and the first to send a byte
 * wins, without hedging it is given up and the next one starts. Attempts that lose are cancelled
 * before anything of theirs reached the client, so nothing of theirs is billed; one that was
 * past its deadline counts as a timeout against its channel × model, one that was not counts
 * as nothing. Failures worth it move on to the next channel, as before.
 */
export class AttemptRace {
  lastFailure: AttemptFailure | undefined;
  readonly #queue: Channel[];
  readonly #running: RunningAttempt[] = [];
  #realAttempts = 0;
  #waitedOnce = false;
  #measuredBodyChars: number | undefined;

  constructor(
    private readonly deps: RelayDeps,
    private readonly input: RelayInput,
    /** Aborted when the client leaves or the request's total time is up. */
    private readonly deadline: AbortSignal,
    private readonly abortRequest: () => void,
    private readonly attempts: UsageAttempt[],
    private readonly noteWarnings: (warnings: readonly Warning[]) => void,
    /** The request's tool-call reasoning cache look-up, shared by all its attempts. */
    private readonly recall?: ReasoningRecall,
  ) {
    this.#queue = [...input.channels];
  }

  async next(): Promise<RaceResult> {
    for (;;) {
      while (!this.deadline.aborted && this.#running.every((running) => running.overdue) && this.#canStart()) this.#start();
      if (this.#running.length === 0) return { kind: 'exhausted' };

      const waits: Array<Promise<RaceEvent>> = [];
      for (const running of this.#running) {
        waits.push(running.settled);
        if (!running.overdue && running.late) waits.push(running.late);
      }
      const event = await Promise.race(waits);
      const { running } = event;

      if (event.type === 'late') {
        running.overdue = true;
        // Without hedging a late attempt is given up for the next candidate (when there is one).
        if (!this.deps.firstByte?.hedge && this.#canStart()) this.#cancel(running);
        continue;
      }

      this.#remove(running);
      if (event.type === 'thrown') {
        this.deps.health.release(running.channel, running.lease);
        this.#drop(running);
        await this.#cancelAll();
        if (isGatewayError(event.error)) return { kind: 'refused', error: event.error };
        throw event.error;
      }

      const { outcome } = event;
      if (outcome.kind === 'ready' && running.cancelledAs) {
        // Given up (past its deadline, no hedging) just as it answered: its body is going away.
        this.#closeLateAnswer(running, outcome);
        continue;
      }
      this.#fill(running, outcome);
      if (outcome.kind === 'ready') {
        this.#observeFirstByte(running, outcome);
        await this.#cancelAll();
        return { kind: 'ready', channel: running.channel, lease: running.lease, outcome };
      }

      this.lastFailure = outcome;
      // One upstream key refused: the channel's other keys may still work.
      if (outcome.failureClass === 'broken' && running.channel.apiKeys.length > 1) this.#queue.unshift(running.channel);
      if (!outcome.retryable) {
        await this.#cancelAll();
        return { kind: 'failed', channel: running.channel, outcome };
      }
      const retryAfterMs = (outcome.error.retryAfterSeconds ?? 0) * 1000;
      if (this.#running.length === 0 && this.#queue.length === 0 && !this.#waitedOnce && retryAfterMs > 0 && retryAfterMs <= this.deps.maxRetryWaitMs) {
        // The only channel left asked for a short pause: wait it out once rather than fail.
        this.#waitedOnce = true;
        await sleepUnlessAborted(retryAfterMs, this.deadline);
        this.#queue.push(running.channel);
      }
    }
  }

  /** The relay moved on from a committed attempt whose reply turned out unusable. */
  failedAfterCommit(failure: AttemptFailure): void {
    this.lastFailure = failure;
  }

  #canStart(): boolean {
    return this.#queue.length > 0 && this.#realAttempts < this.deps.maxAttempts;
  }

  #start(): void {
    const channel = this.#queue.shift() as Channel;
    const preferred = this.input.preferredKey;
    const lease = this.deps.health.acquire(channel, {
      model: this.input.publicModel,
      ...(this.input.pinnedKeyIndex === undefined ? {} : { onlyKeyIndex: this.input.pinnedKeyIndex }),
      ...(preferred?.channelId === channel.id ? { preferKeyIndex: preferred.keyIndex } : {}),
    });
    if (!lease) {
      this.attempts.push({ channelId: channel.id, channelName: channel.name, status: null, errorCode: 'circuit_open', latencyMs: 0 });
      return;
    }
    this.#realAttempts += 1;
    // An attempt that may have to be stopped alone (it loses a race, or is given up for another
    // candidate) gets its own controller, which also follows the request's (client gone, total
    // deadline): a listener, not AbortSignal.any, which costs far more per request; the request's
    // signal lives only as long as the request, so the listener needs no removing. An attempt
    // that starts with no other one running and none queued can never be stopped alone: nothing
    // can start beside it (the queue only grows from another running attempt's failure, or after
    // the retry wait, which needs none running), so it follows the request's signal directly.
    // That is the common case, and it saves a controller and a listener per request.
    let controller: AbortController | undefined;
    if (this.#running.length > 0 || this.#queue.length > 0) {
      const own = new AbortController();
      if (this.deadline.aborted) own.abort();
      else this.deadline.addEventListener('abort', () => own.abort(), { once: true });
      controller = own;
    }
    const placeholder: UsageAttempt = { channelId: channel.id, channelName: channel.name, status: null, errorCode: null, latencyMs: 0 };
    this.attempts.push(placeholder);
    const running: RunningAttempt = {
      channel,
      lease,
      placeholder,
      controller,
      startedAt: this.deps.runtime.now(),
      deadlineMs: this.#deadlineFor(channel),
      timer: undefined,
      overdue: false,
      cancelledAs: undefined,
      settled: undefined as unknown as Promise<RaceEvent>,
      late: undefined,
    };
    running.settled = attemptChannel(this.deps, this.input, channel, lease, controller?.signal ?? this.deadline, this.abortRequest, this.recall).then(
      (outcome): RaceEvent => {
        clearTimeout(running.timer);
        return { type: 'settled', running, outcome };
      },
      (error: unknown): RaceEvent => {
        clearTimeout(running.timer);
        return { type: 'thrown', running, error };
      },
    );
    if (running.deadlineMs !== undefined) {
      const ms = running.deadlineMs;
      running.late = new Promise((resolve) => {
        running.timer = setTimeout(() => resolve({ type: 'late', running }), ms);
      });
    }
    this.#running.push(running);
  }

  /** Only streams have a first-byte deadline: a plain reply's first byte comes when it is complete. */
  #deadlineFor(channel: Channel): number | undefined {
    const firstByte = this.deps.firstByte;
    if (!firstByte || !this.input.stream) return undefined;
    // A large prompt is slow to its first byte because of its size, which the tenant chooses:
    // a second attempt beside it (or instead of it) would pay the upstream for the whole prompt
    // again, at no charge to the tenant. It waits out the upstream's own first-byte timeout,
    // and its time does not feed the channel's deadline either.
    if (this.#bodyChars() > firstByte.maxBodyChars) return undefined;
    return firstByte.deadlines.deadlineMs(channel.id, this.input.publicModel);
  }

  /** The request body's length in characters (about one token per 1–4), measured once per request. */
  #bodyChars(): number {
    this.#measuredBodyChars ??= this.input.rawBody?.length ?? JSON.stringify(this.input.body).length;
    return this.#measuredBodyChars;
  }

  #observeFirstByte(running: RunningAttempt, outcome: AttemptReady): void {
    if (running.deadlineMs === undefined) return;
    this.deps.firstByte?.deadlines.observe(running.channel.id, this.input.publicModel, outcome.attempt.latencyMs);
  }

  /**
   * Stops an attempt. Past its deadline it counts as a timeout against its channel × model (the
   * attempt reports it through its health lease); otherwise it just lost, which counts as nothing.
   */
  #cancel(running: RunningAttempt): void {
    if (running.cancelledAs) return;
    // Never the case (see #start): an attempt without its own controller never runs beside another.
    if (running.controller === undefined) return;
    if (running.overdue) {
      running.cancelledAs = 'first_byte_timeout';
      running.controller.abort(
        new GatewayError(
          'upstream_timeout',
          `The upstream sent no first byte within ${running.deadlineMs ?? 0} ms (the first-byte deadline of this channel and model).`,
        ),
      );
    } else {
      running.cancelledAs = 'cancelled';
      running.controller.abort();
    }
  }

  /** Cancels every attempt still running and waits until each has settled and let go of its upstream request. */
  async #cancelAll(): Promise<void> {
    const losers = this.#running.splice(0);
    for (const running of losers) this.#cancel(running);
    for (const running of losers) {
      const event = await running.settled;
      if (event.type === 'late') continue;
      if (event.type === 'thrown') {
        this.deps.health.release(running.channel, running.lease);
        this.#drop(running);
        continue;
      }
      if (event.outcome.kind === 'ready') this.#closeLateAnswer(running, event.outcome);
      else this.#fill(running, event.outcome);
    }
  }

  /** An attempt answered after the race had moved on from it: close it and count the answer. */
  #closeLateAnswer(running: RunningAttempt, outcome: AttemptReady): void {
    outcome.response.body.destroy();
    this.deps.health.recordSuccess(running.channel, running.lease, outcome.attempt.latencyMs);
    this.#observeFirstByte(running, outcome);
    this.#fill(running, outcome);
  }

  #drop(running: RunningAttempt): void {
    const index = this.attempts.indexOf(running.placeholder);
    if (index !== -1) this.attempts.splice(index, 1);
  }

  #fill(running: RunningAttempt, outcome: AttemptReady | AttemptFailure): void {
    this.noteWarnings(outcome.warnings);
    const attempt = outcome.attempt;
    if (running.cancelledAs) {
      attempt.errorCode = running.cancelledAs;
      attempt.status = null;
    }
    const index = this.attempts.indexOf(running.placeholder);
    if (index !== -1) this.attempts[index] = attempt;
  }

  #remove(running: RunningAttempt): void {
    const index = this.#running.indexOf(running);
    if (index !== -1) this.#running.splice(index, 1);
  }
}
