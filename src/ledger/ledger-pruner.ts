import type { Logger } from 'pino';
import { startHourlyPruner } from '../store/start-hourly-pruner.ts';
import type { LedgerRepository } from '../store/ledger-repository-port.ts';

const DAY = 86_400_000;
/** How much longer a channel-day without an imported upstream bill is kept past the retention. */
export const UNRECONCILED_GRACE_DAYS = 90;

/**
 * Deletes ledger rows older than the retention (LEDGER_RETENTION_DAYS), as the usage pruner does
 * (once at start, then hourly, leader only, batched): a channel-day that no imported bill has
 * reconciled yet is kept `UNRECONCILED_GRACE_DAYS` longer. 0 days keeps everything.
 */
export function startLedgerPruner(input: {
  ledger: Pick<LedgerRepository, 'pruneBefore'>;
  retentionDays: number;
  now: () => number;
  logger: Logger;
  /** Default: always. */
  isLeader?: () => boolean;
}): { prune(): Promise<number>; stop(): void } {
  if (input.retentionDays <= 0) return { prune: async () => 0, stop: () => {} };
  return startHourlyPruner({
    what: `ledger rows older than ${input.retentionDays} days`,
    prune: () => {
      const before = input.now() - input.retentionDays * DAY;
      return input.ledger.pruneBefore(before, before - UNRECONCILED_GRACE_DAYS * DAY);
    },
    logger: input.logger,
    ...(input.isLeader === undefined ? {} : { isLeader: input.isLeader }),
  });
}
