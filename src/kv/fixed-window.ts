import type { Kv } from './kv.ts';

/**
 * The current window of a fixed-window budget (sign-in, sign-up and passkey-option throttles):
 * its number (part of each counter's key, so a new window starts from zero) and when it ends.
 */
export interface FixedWindow {
  index: number;
  end: number;
}

export function fixedWindow(now: number, windowMs: number): FixedWindow {
  const index = Math.floor(now / windowMs);
  return { index, end: (index + 1) * windowMs };
}

/** Whole seconds until the window ends (at least 1): the Retry-After of a refusal. */
export function secondsLeft(window: FixedWindow, now: number): number {
  return Math.max(1, Math.ceil((window.end - now) / 1000));
}

/**
 * Takes one place in `key`'s budget with one bounded atomic increment in the shared kv (Redis
 * across instances), so a burst sent in parallel cannot overshoot the budget; the counter lives
 * until its window ends. False when the budget is spent.
 */
export async function takeWindowPlace(kv: Kv, key: string, budget: number, window: FixedWindow, now: number): Promise<boolean> {
  const result = await kv.adjust(key, 1, { max: budget, ttlMs: Math.max(window.end - now, 1000) });
  return result.applied;
}

/** Gives places back (a refused attempt's other budgets, a right password's), never below zero. */
export async function giveWindowPlacesBack(kv: Kv, keys: readonly string[], windowEnd: number, now: number): Promise<void> {
  const ttlMs = Math.max(windowEnd - now, 1000);
  await Promise.all(keys.map((key) => kv.adjust(key, -1, { min: 0, ttlMs })));
}
