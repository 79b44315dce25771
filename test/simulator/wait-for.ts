/**
 * Polls until `condition` holds, failing after `timeoutMs`. For effects that happen on the other
 * side of a socket (a close), where there is no event to await in the test's process.
 */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 1_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
