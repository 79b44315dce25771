import type { Logger } from 'pino';
import type { StoredResponseRepository } from '../store/store.ts';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes expired Responses turns: once at start, then hourly on an unref'd timer. Expired
 * turns are already invisible (every lookup checks `expiresAt`); this only reclaims the space.
 * With several instances only the leader prunes.
 */
export function startStoredResponsePruner(input: {
  repository: Pick<StoredResponseRepository, 'prune'>;
  now: () => number;
  logger: Logger;
  isLeader?: () => boolean;
}): { prune(): Promise<number>; stop(): void } {
  const prune = async (): Promise<number> => {
    try {
      const removed = await input.repository.prune(input.now());
      if (removed > 0) input.logger.info({ removed }, 'pruned expired Responses turns');
      return removed;
    } catch (error) {
      input.logger.error({ err: error }, 'pruning Responses turns failed; will retry');
      return 0;
    }
  };
  const pruneIfLeader = () => (input.isLeader?.() === false ? undefined : void prune());
  pruneIfLeader();
  const timer = setInterval(pruneIfLeader, PRUNE_EVERY_MS);
  timer.unref();
  return { prune, stop: () => clearInterval(timer) };
}
