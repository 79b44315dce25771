import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits until a condition holds, checking every few milliseconds, and fails with `what` when it
 * does not hold within the limit. For state that changes in the background (circuits closing,
 * sockets closing), where a fixed sleep would be either flaky or slow.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, limitMs = 5_000): Promise<void> {
  const giveUpAt = Date.now() + limitMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > giveUpAt) throw new Error(`timed out after ${limitMs} ms waiting for: ${what}`);
    await delay(5);
  }
}
