/**
 * Time, ids and randomness come from here, never from `Date.now()` or `Math.random()` inside
 * codecs or routing, so golden tests can be byte-exact and routing tests deterministic.
 */
export interface RuntimeContext {
  /** Milliseconds since the epoch. */
  now(): number;
  /** A fresh id with the given prefix, e.g. `generateId('chatcmpl-')`. */
  generateId(prefix: string): string;
  /** A uniform random number in [0, 1). */
  random(): number;
}
