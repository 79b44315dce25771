import type { Logger } from 'pino';
import type { UsageLogRepository } from '../store/store.ts';

const DAY = 86_400_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes usage rows older than the retention period: once at start, then hourly on an
 * unref'd timer (it never keeps the process alive). 0 days keeps everything. With several
 * instances only the leader prunes.
 */
export function startUsagePruner(input: {
  usage: Pick<UsageLogRepository, 'pruneBefore'>;
  retentionDays: number;
  now: () => number;
  logger: Logger;
  /** Default: always. */
  isLeader?: () => boolean;
}): { prune(): Promise<number>; stop(): void } {
  const prune = async (): Promise<number> => {
    if (input.retentionDays <= 0) return 0;
    try {
      const removed = await input.usage.pruneBefore(input.now() - input.retentionDays * DAY);
      if (removed > 0) input.logger.info({ removed, retentionDays: input.retentionDays }, 'pruned old usage logs');
      return removed;
    } catch (error) {
      input.logger.error({ err: error }, 'usage log pruning failed; will retry');
      return 0;
    }
  };
  if (input.retentionDays <= 0) return { prune, stop: () => {} };
  const pruneIfLeader = () => (input.isLeader?.() === false ? undefined : void prune());
  pruneIfLeader();
  const timer = setInterval(pruneIfLeader, PRUNE_EVERY_MS);
  timer.unref();
  return { prune, stop: () => clearInterval(timer) };
}
