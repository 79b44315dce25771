import type { UsageWriter } from '../billing/usage-writer.ts';
import type { Usage } from '../core/usage.ts';
import type { UsageLogEntry } from '../store/store.ts';

export type UsageRow = Omit<
  UsageLogEntry,
  'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'reasoningTokens'
> & { usage: Usage | undefined };

/** Flattens canonical usage into a log row and queues it (written in batches, off the hot path). */
export function recordUsage(writer: UsageWriter, row: UsageRow): void {
  const { usage, ...rest } = row;
  writer.record({
    ...rest,
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cacheReadTokens: usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
    reasoningTokens: usage?.reasoningTokens ?? 0,
  });
}
