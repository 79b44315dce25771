import type { RuntimeContext } from '../../src/core/runtime-context.ts';

/** A runtime with a frozen clock and counting ids, so codec output is byte-exact. */
export function createFixedRuntime(options: { now?: number; seed?: number } = {}): RuntimeContext {
  const now = options.now ?? 1_700_000_000_000;
  const counters = new Map<string, number>();
  let state = options.seed ?? 42;
  return {
    now: () => now,
    generateId(prefix: string) {
      const next = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, next);
      return `${prefix}${String(next).padStart(4, '0')}`;
    },
    // mulberry32: tiny, seedable, good enough for tests of weighted choice.
    random() {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}
