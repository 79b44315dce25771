import type { Logger } from 'pino';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Runs one cleanup job (`prune`, which returns how many rows went) once at start and then
 * hourly on an unref'd timer that never keeps the process alive. With several instances only
 * the leader prunes. A failed run is logged and tried again at the next hour.
 */
export function startHourlyPruner(input: {
  /** What is pruned, for the log lines ("expired Responses turns"). */
  what: string;
  prune: () => Promise<number>;
  logger: Logger;
  /** Default: always. */
  isLeader?: () => boolean;
}): { prune(): Promise<number>; stop(): void } {
  const prune = async (): Promise<number> => {
    try {
      const removed = await input.prune();
      if (removed > 0) input.logger.info({ removed }, `pruned ${input.what}`);
      return removed;
    } catch (error) {
      input.logger.error({ err: error }, `pruning ${input.what} failed; will retry`);
      return 0;
    }
  };
  const pruneIfLeader = () => (input.isLeader?.() === false ? undefined : void prune());
  pruneIfLeader();
  const timer = setInterval(pruneIfLeader, PRUNE_EVERY_MS);
  timer.unref();
  return { prune, stop: () => clearInterval(timer) };
}
