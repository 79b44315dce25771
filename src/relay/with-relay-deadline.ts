import type { RelayDeps } from './relay-deps.ts';

/**
 * Runs a whole-reply relay under one signal that ends when the client goes away or the relay's
 * total time limit passes, whichever comes first; the timer and listener go with the call.
 */
export async function withRelayDeadline<T>(
  deps: Pick<RelayDeps, 'totalTimeoutMs'>,
  clientSignal: AbortSignal,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (clientSignal.aborted) abort();
  clientSignal.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(abort, deps.totalTimeoutMs);
  try {
    return await run(controller.signal);
  } finally {
    clearTimeout(timer);
    clientSignal.removeEventListener('abort', abort);
  }
}
