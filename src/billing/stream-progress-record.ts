import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import { isSettlementPlan, type SettlementPlan } from './settlement-plan.ts';

/**
 * What an instance keeps in Redis for a stream it is relaying (kv/progress-book.ts), so that
 * another instance can bill it should this one die: the usage row as it would be written had the
 * stream been cut right then (usage billed as a cut stream, cost at the request's price) and
 * where the money is held and charged. About 1 KB; rewritten only when it changed.
 */
export interface StreamProgressRecord {
  v: 1;
  row: UsageLogEntry;
  plan: SettlementPlan;
}

/** The row's marks when a survivor wrote it: an operator sees at a glance who billed it and why. */
export const INSTANCE_LOST_CODE = 'instance_lost';
export const BILLED_FROM_PROGRESS_WARNING = 'billed:recorded-progress';

export function serializeProgress(row: UsageLogEntry, plan: SettlementPlan): string {
  const record: StreamProgressRecord = { v: 1, row, plan };
  return JSON.stringify(record);
}

/** The record read back, or undefined when it is not one (a newer format, a damaged value). */
export function parseProgress(text: string): StreamProgressRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, row, plan } = value as Record<string, unknown>;
  if (v !== 1 || !isSettlementPlan(plan) || typeof row !== 'object' || row === null) return undefined;
  const { costMicros, requestId } = row as Record<string, unknown>;
  if (!Number.isSafeInteger(costMicros) || (costMicros as number) < 0 || typeof requestId !== 'string') return undefined;
  return { v, row: row as UsageLogEntry, plan };
}
