import type { Logger } from 'pino';
import { startHourlyPruner } from '../store/start-hourly-pruner.ts';
import type { UsageLogRepository } from '../store/store.ts';

const DAY = 86_400_000;

/**
 * Deletes usage rows older than the retention period: once at start, then hourly (see
 * startHourlyPruner: unref'd timer, leader only). 0 days keeps everything and starts no timer.
 */
export function startUsagePruner(input: {
  usage: Pick<UsageLogRepository, 'pruneBefore'>;
  retentionDays: number;
  now: () => number;
  logger: Logger;
  /** Default: always. */
  isLeader?: () => boolean;
}): { prune(): Promise<number>; stop(): void } {
  if (input.retentionDays <= 0) return { prune: async () => 0, stop: () => {} };
  return startHourlyPruner({
    what: `usage logs older than ${input.retentionDays} days`,
    prune: () => input.usage.pruneBefore(input.now() - input.retentionDays * DAY),
    logger: input.logger,
    ...(input.isLeader === undefined ? {} : { isLeader: input.isLeader }),
  });
}
