import type { Logger } from 'pino';
import type { Kv } from '../kv/kv.ts';
import type { ChargeWriter } from './charge-writer.ts';
import { applySettlement, type ChargeTarget } from './settlement-plan.ts';
import { BILLED_FROM_PROGRESS_WARNING, INSTANCE_LOST_CODE, parseProgress } from './stream-progress-record.ts';
import type { UsageWriter } from './usage-writer.ts';

export interface DeadStreamBillingDeps {
  kv: Kv;
  writers: Record<ChargeTarget, Pick<ChargeWriter, 'record'>>;
  usageWriter: Pick<UsageWriter, 'record'>;
  logger: Logger;
}

/**
 * Bills a dead instance's stream from the progress it last recorded (stream-progress-record.ts),
 * once its record was claimed by this instance (kv/hold-journal.ts decides who): the holds are
 * settled to the recorded cost and the charges recorded through this instance's own writers,
 * exactly as the dead instance's settle would have; the usage row is written marked
 * (`error_code` instance_lost, warning billed:recorded-progress). A record that cannot be read
 * throws: the journal then releases its holds at 0 (as for a stream with no progress), rather
 * than guess where money goes.
 */
export function billDeadStreams(deps: DeadStreamBillingDeps): (record: string) => Promise<void> {
  return async (text) => {
    const record = parseProgress(text);
    if (record === undefined) throw new Error('a dead instance left a progress record that cannot be read; its holds are released unbilled');
    const { row, plan } = record;
    await applySettlement(plan, row.costMicros, deps.kv, (target) => deps.writers[target]);
    deps.usageWriter.record({
      ...row,
      errorCode: INSTANCE_LOST_CODE,
      errorMessage:
        'The instance relaying this stream stopped mid-stream (its client saw the connection reset); another instance billed what it had last recorded as delivered.',
      warnings: [...row.warnings, BILLED_FROM_PROGRESS_WARNING],
    });
    deps.logger.warn({ requestId: row.requestId, costMicros: row.costMicros }, "billed a dead instance's stream from its recorded progress");
  };
}
