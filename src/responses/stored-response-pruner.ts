import type { Logger } from 'pino';
import { startHourlyPruner } from '../store/start-hourly-pruner.ts';
import type { StoredResponseRepository } from '../store/store.ts';

/**
 * Deletes expired Responses turns: once at start, then hourly. Expired turns are already
 * invisible (every lookup checks `expiresAt`); this only reclaims the space. With several
 * instances only the leader prunes.
 */
export function startStoredResponsePruner(input: {
  repository: Pick<StoredResponseRepository, 'prune'>;
  now: () => number;
  logger: Logger;
  isLeader?: () => boolean;
}): { prune(): Promise<number>; stop(): void } {
  return startHourlyPruner({
    what: 'expired Responses turns',
    prune: () => input.repository.prune(input.now()),
    logger: input.logger,
    ...(input.isLeader === undefined ? {} : { isLeader: input.isLeader }),
  });
}
