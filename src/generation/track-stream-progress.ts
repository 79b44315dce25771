import type { Admission } from '../billing/admit-generation.ts';
import { settleUsage } from '../billing/settle-usage.ts';
import { serializeProgress } from '../billing/stream-progress-record.ts';
import type { ProgressBook, ProgressHandle } from '../kv/progress-book.ts';
import type { WatchedStream } from '../relay/relay-input.ts';
import type { GenerationTurn } from './generation-turn.ts';

/**
 * Keeps an open stream's progress in the instance's journal (kv/progress-book.ts), read when the
 * journal writes (every 2 s), never per chunk: the usage row and cost the stream would be billed
 * had it been cut right then (settleUsage on a cut stream, the same estimate a client-aborted
 * stream gets) and where its money is held. A survivor bills that should this instance die.
 */
export function trackStreamProgress(book: ProgressBook, turn: GenerationTurn, stream: WatchedStream): ProgressHandle {
  const admission = turn.admission as Admission;
  let lastKey = '';
  let lastRecord: string | undefined;
  return book.track({
    holds: admission.settlement.holds.map(([key, holdId]) => [key, holdId] as const),
    read() {
      const { usage, deliveredChars } = stream.progress();
      const billed = settleUsage(admission, () => turn.estimate(), usage, { answered: true, deliveredChars, cut: true });
      const costMicros = admission.quote(billed.usage);
      // Unchanged since the last read: the same record (not rewritten in Redis).
      const key = `${costMicros}:${JSON.stringify(billed.usage)}`;
      if (key === lastKey) return lastRecord;
      lastKey = key;
      const row = turn.usageRow(
        {
          kind: 'relayed',
          result: {
            status: 200,
            error: undefined,
            channel: stream.channel,
            upstreamModel: stream.upstreamModel,
            upstreamProtocol: stream.upstreamProtocol,
            warnings: [],
            attempts: [],
          },
          firstByteAt: turn.writer?.firstByteAt,
          usage: billed.usage,
          costMicros,
        },
        [...admission.warnings, ...billed.warnings],
      );
      lastRecord = serializeProgress(row, admission.settlement);
      return lastRecord;
    },
  });
}
