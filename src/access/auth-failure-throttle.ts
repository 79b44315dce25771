/**
 * Counts failed admin-token attempts per client address and refuses further attempts from an
 * address that failed too often, for the rest of its window — so the admin token cannot be
 * guessed at network speed (it was 1,000 guesses in 1.5 s). Per process: with several
 * instances an attacker gets the limit once per instance, still a few dozen guesses a minute
 * against a 192-bit token. Memory is bounded: at most `maxAddresses` are tracked, the oldest
 * window dropped first.
 */
export interface AuthThrottleOptions {
  /** Failures allowed per address per window. */
  maxFailures: number;
  windowMs: number;
  maxAddresses: number;
}

export const DEFAULT_AUTH_THROTTLE: AuthThrottleOptions = { maxFailures: 10, windowMs: 60_000, maxAddresses: 10_000 };

export class AuthFailureThrottle {
  readonly #windows = new Map<string, { startedAt: number; failures: number }>();

  constructor(
    private readonly now: () => number,
    private readonly options: AuthThrottleOptions = DEFAULT_AUTH_THROTTLE,
  ) {}

  /** Seconds until `address` may try again, or 0 when it may try now. */
  blockedFor(address: string): number {
    const window = this.#current(address);
    if (!window || window.failures < this.options.maxFailures) return 0;
    return Math.max(1, Math.ceil((window.startedAt + this.options.windowMs - this.now()) / 1000));
  }

  recordFailure(address: string): void {
    const window = this.#current(address);
    if (window) {
      window.failures += 1;
      return;
    }
    if (this.#windows.size >= this.options.maxAddresses) {
      const oldest = this.#windows.keys().next().value;
      if (oldest !== undefined) this.#windows.delete(oldest);
    }
    this.#windows.set(address, { startedAt: this.now(), failures: 1 });
  }

  #current(address: string): { startedAt: number; failures: number } | undefined {
    const window = this.#windows.get(address);
    if (window && this.now() - window.startedAt >= this.options.windowMs) {
      this.#windows.delete(address);
      return undefined;
    }
    return window;
  }
}
