/** The request header a caller sends to get a `Server-Timing` header on the reply. */
export const TIMING_REQUEST_HEADER = 'x-switchyard-timing';

/**
 * Where one request's time went inside the gateway, phase by phase, for the `Server-Timing`
 * reply header (sent only to callers who ask with `X-Switchyard-Timing`): each `mark(name)`
 * closes the phase that began at the previous mark. Milliseconds with µs precision from a
 * monotonic clock, as the Server-Timing `dur` parameter expects.
 */
export class PhaseTiming {
  readonly #now: () => number;
  readonly #start: number;
  #last: number;
  #header = '';

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#start = now();
    this.#last = this.#start;
  }

  mark(phase: string): void {
    const at = this.#now();
    this.#header += `${this.#header === '' ? '' : ', '}${phase};dur=${(at - this.#last).toFixed(3)}`;
    this.#last = at;
  }

  /** The phases so far plus `total` (from the first phase's start to now). */
  header(): string {
    const total = `total;dur=${(this.#now() - this.#start).toFixed(3)}`;
    return this.#header === '' ? total : `${this.#header}, ${total}`;
  }
}
