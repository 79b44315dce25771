import type { GenerationRecord } from './record-generation-usage.ts';
import type { LedgerRows, PayerKind } from '../domain/ledger-entry.ts';
import { buildLedgerEntries } from './build-ledger-entries.ts';
import { costPriceAt } from '../snapshot/price-book.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';

/**
 * The ledger rows of a relayed request, carried in its usage row (and written in the same batch):
 * every attempt at its channel's cost price at the request's time, and the payer's charge at the
 * sell-price version the admission used. A request refused before any upstream call has no ledger
 * rows (nothing was consumed or charged); neither has one when the gateway keeps no ledger.
 */
export function ledgerRowsOf(
  deps: { snapshot: { current: Snapshot }; keepLedger?: boolean | undefined },
  record: GenerationRecord,
  billing: { priceVersion: string | null; estimatedInputTokens: number | undefined },
): LedgerRows | undefined {
  const { outcome, caller } = record;
  if (deps.keepLedger !== true || outcome.kind !== 'relayed' || outcome.result.attempts.length === 0) return undefined;
  const { result } = outcome;
  const snapshot = deps.snapshot.current;
  const model = record.model;
  const committed =
    result.channel === undefined
      ? undefined
      : lastIndex(result.attempts, (attempt) => attempt.channelId === result.channel?.id && attempt.status !== null && attempt.status < 300);
  const payer: PayerKind = record.payment?.paidBy ?? 'key_spend';
  return buildLedgerEntries(
    {
      requestId: record.requestId,
      time: record.startedAt,
      model,
      group: caller?.group.name ?? null,
      keyId: caller?.key.id ?? null,
      accountId: record.payment?.userId ?? caller?.key.userId ?? null,
      upstreamProtocol: result.upstreamProtocol ?? null,
      attempts: result.attempts,
      committed,
      reported: outcome.reported ?? outcome.usage,
      billed: outcome.usage,
      charge: { micros: outcome.costMicros, version: billing.priceVersion, payer, payerId: payerId(payer, record) },
      estimatedInputTokens: billing.estimatedInputTokens ?? outcome.usage?.inputTokens,
    },
    (channelId) => (model === null ? undefined : costPriceAt(snapshot, model, channelId, record.startedAt)),
  );
}

function payerId(payer: PayerKind, record: GenerationRecord): string | null {
  if (payer === 'subscription') return record.payment?.subscriptionId ?? null;
  if (payer === 'wallet') return record.payment?.userId ?? null;
  return record.caller?.key.id ?? null;
}

function lastIndex<T>(items: readonly T[], matches: (item: T) => boolean): number | undefined {
  for (let index = items.length - 1; index >= 0; index -= 1) if (matches(items[index] as T)) return index;
  return undefined;
}
