/**
 * One circuit: closed (traffic flows), open (skipped until a cool-down ends), half-open (one
 * probe at a time decides). It opens on an error *rate* over a sliding window — never on a
 * single error — or at once when told the upstream itself is broken (bad credentials, no
 * credit). Each reopening doubles the cool-down, up to a ceiling, so a dead upstream is probed
 * less and less often while a flapping one recovers quickly.
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitOptions {
  /** Sliding window length. */
  windowMs: number;
  /** Fewer outcomes than this in the window never open the circuit. */
  minimumRequests: number;
  /** Error share in the window at or above which the circuit opens (0..1). */
  errorRateThreshold: number;
  cooldownMs: number;
  maxCooldownMs: number;
}

export const DEFAULT_CIRCUIT_OPTIONS: CircuitOptions = {
  windowMs: 60_000,
  minimumRequests: 5,
  errorRateThreshold: 0.5,
  cooldownMs: 15_000,
  maxCooldownMs: 300_000,
};

/** Outcomes are kept in one-second buckets so memory stays fixed however busy the channel is. */
const BUCKET_MS = 1_000;

export class CircuitBreaker {
  state: CircuitState = 'closed';
  /** Why it last opened, in words for the console. */
  reason: string | undefined;
  openedAt: number | undefined;
  #cooldownMs: number;
  #retryAt = 0;
  #probeInFlight = false;
  readonly #buckets: Array<{ start: number; ok: number; failed: number }> = [];

  constructor(private readonly options: CircuitOptions = DEFAULT_CIRCUIT_OPTIONS) {
    this.#cooldownMs = options.cooldownMs;
  }

  /** Whether a request may use this circuit now; an elapsed cool-down admits one probe. */
  tryAcquire(now: number): boolean {
    switch (this.state) {
      case 'closed':
        return true;
      case 'open':
        if (now < this.#retryAt) return false;
        this.state = 'half-open';
        this.#probeInFlight = true;
        return true;
      case 'half-open':
        if (this.#probeInFlight) return false;
        this.#probeInFlight = true;
        return true;
      default: {
        const unreachable: never = this.state;
        return unreachable;
      }
    }
  }

  /** Whether `tryAcquire` would admit a request now, without taking the half-open probe. */
  canAcquire(now: number): boolean {
    if (this.state === 'closed') return true;
    if (this.state === 'open') return now >= this.#retryAt;
    return !this.#probeInFlight;
  }

  /** When the next probe will be admitted (epoch ms), for `retry-after` answers. */
  get retryAt(): number {
    return this.#retryAt;
  }

  recordSuccess(now: number): void {
    this.#count(now, true);
    if (this.state !== 'closed') {
      this.state = 'closed';
      this.reason = undefined;
      this.openedAt = undefined;
      this.#cooldownMs = this.options.cooldownMs;
    }
    this.#probeInFlight = false;
  }

  recordFailure(now: number, reason: string): void {
    this.#count(now, false);
    if (this.state === 'half-open') {
      this.#open(now, reason, this.#cooldownMs * 2);
      return;
    }
    if (this.state === 'closed') {
      const { ok, failed } = this.#totals(now);
      const total = ok + failed;
      if (total >= this.options.minimumRequests && failed / total >= this.options.errorRateThreshold) {
        this.#open(now, `${Math.round((failed / total) * 100)}% of ${total} recent requests failed; last: ${reason}`, this.#cooldownMs);
      }
    }
  }

  /** The upstream says it is unusable (credentials, quota): open now, whatever the window says. */
  trip(now: number, reason: string, cooldownMs = this.options.maxCooldownMs): void {
    this.#open(now, reason, cooldownMs);
  }

  /** Skip this circuit for a while without counting a failure (an upstream's `retry-after`). */
  pauseUntil(now: number, until: number, reason: string): void {
    if (until <= now) return;
    this.state = 'open';
    this.reason = reason;
    this.openedAt = now;
    this.#retryAt = Math.max(this.#retryAt, until);
    this.#probeInFlight = false;
  }

  /**
   * Takes the state another instance decided (shared circuits): open until `retryAt`, or
   * closed. Counts nothing, so the local error window stays this instance's own.
   */
  mirror(state: 'open' | 'closed', retryAt: number, openedAt: number | undefined, reason: string | undefined): void {
    this.#probeInFlight = false;
    if (state === 'closed') {
      this.state = 'closed';
      this.reason = undefined;
      this.openedAt = undefined;
      this.#cooldownMs = this.options.cooldownMs;
      return;
    }
    this.state = 'open';
    this.reason = reason;
    this.openedAt = openedAt;
    this.#retryAt = retryAt;
  }

  /** Share of successes in the window, or undefined with no traffic. */
  successRate(now: number): number | undefined {
    const { ok, failed } = this.#totals(now);
    return ok + failed === 0 ? undefined : ok / (ok + failed);
  }

  #open(now: number, reason: string, cooldownMs: number): void {
    this.#cooldownMs = Math.min(cooldownMs, this.options.maxCooldownMs);
    this.state = 'open';
    this.reason = reason;
    this.openedAt = now;
    this.#retryAt = now + this.#cooldownMs;
    this.#probeInFlight = false;
  }

  #count(now: number, ok: boolean): void {
    const start = now - (now % BUCKET_MS);
    let bucket = this.#buckets.at(-1);
    if (!bucket || bucket.start !== start) {
      bucket = { start, ok: 0, failed: 0 };
      this.#buckets.push(bucket);
    }
    if (ok) bucket.ok += 1;
    else bucket.failed += 1;
    this.#prune(now);
  }

  #totals(now: number): { ok: number; failed: number } {
    this.#prune(now);
    let ok = 0;
    let failed = 0;
    for (const bucket of this.#buckets) {
      ok += bucket.ok;
      failed += bucket.failed;
    }
    return { ok, failed };
  }

  #prune(now: number): void {
    const oldest = now - this.options.windowMs;
    while (this.#buckets.length > 0 && (this.#buckets[0]?.start ?? 0) + BUCKET_MS <= oldest) this.#buckets.shift();
  }
}
