import { computeCostMicros } from '../billing/compute-cost.ts';
import type { Usage } from '../core/usage.ts';
import { type LedgerAttempt, type LedgerCharge, type LedgerUsage, type PayerKind, RAW_USAGE_MAX_CHARS } from '../domain/ledger-entry.ts';
import type { CostPrice } from '../snapshot/price-book.ts';
import { checkTokenClasses } from './check-token-classes.ts';

/** One upstream attempt as the relay reports it. */
export interface AttemptFacts {
  channelId: string;
  status: number | null;
  errorCode: string | null;
  keyIndex?: number | undefined;
  upstreamRequestId?: string | undefined;
}

/** What the ledger is told about one request once it is settled. */
export interface LedgerFacts {
  requestId: string;
  time: number;
  model: string | null;
  group: string | null;
  keyId: string | null;
  accountId: string | null;
  upstreamProtocol: string | null;
  attempts: readonly AttemptFacts[];
  /** The attempt whose reply the client got (its index in `attempts`); undefined: none. */
  committed: number | undefined;
  /** The committed attempt's usage as decoded (its `upstream`: the upstream's own object), and as billed (after the pipeline's bounds). */
  reported: Usage | undefined;
  billed: LedgerUsage | undefined;
  /** What the payer was charged, at which sell-price version, and who paid. */
  charge: { micros: number; version: string | null; payer: PayerKind; payerId: string | null } | undefined;
  /** The prompt's size as estimated before sending: what an attempt that was stopped after the upstream took it consumed. */
  estimatedInputTokens: number | undefined;
}

/** Attempts that reached an upstream which then worked on them without the client getting the reply. */
const STOPPED_AFTER_SENDING = new Set(['first_byte_timeout', 'cancelled']);

/**
 * The ledger rows of one request: one per attempt, each costed at its channel's cost price (the
 * committed one for the usage billed, one stopped after the upstream took it — a hedge's loser,
 * a first-byte timeout, an answered attempt not used — for the prompt it was sent, `charged:
 * false`), and one charge row for the payer with the sell amount and version. A refused attempt
 * (an error status, a circuit open) consumed nothing and costs nothing. Never a negative figure.
 */
export function buildLedgerEntries(
  facts: LedgerFacts,
  costPrice: (channelId: string) => CostPrice | undefined,
): { attempts: LedgerAttempt[]; charges: LedgerCharge[] } {
  const raw = rawUsageText(facts.reported?.upstream);
  const attempts = facts.attempts.map((attempt, index): LedgerAttempt => {
    const committed = index === facts.committed;
    const consumed = committed ? committedUsage(facts) : uncommittedUsage(attempt, facts.estimatedInputTokens);
    const cost = costPrice(attempt.channelId);
    const costMicros = cost === undefined ? 0 : computeCostMicros(consumed.usage, cost.price, cost.multiplier);
    const warnings = [
      ...consumed.warnings,
      ...(cost === undefined && hasTokens(consumed.usage) ? ['ledger:no-cost-price'] : []),
      ...(cost?.basis === 'sell' ? ['ledger:cost-assumed-sell-price'] : []),
    ];
    return {
      requestId: facts.requestId,
      attemptNo: index + 1,
      time: facts.time,
      model: facts.model,
      group: facts.group,
      accountId: facts.accountId,
      channelId: attempt.channelId,
      keySlot: attempt.keyIndex ?? null,
      upstreamRequestId: attempt.upstreamRequestId ?? null,
      status: attempt.status,
      rawUsage: committed ? raw.text : null,
      rawUsageTruncated: committed && raw.truncated,
      usage: consumed.usage,
      costMicros,
      costVersion: cost?.price.version ?? null,
      charged: committed && (facts.charge?.micros ?? 0) > 0,
      warnings,
    };
  });
  const charge = facts.charge;
  const charges: LedgerCharge[] =
    charge === undefined || charge.micros <= 0
      ? []
      : [
          {
            requestId: facts.requestId,
            payerKind: charge.payer,
            payerId: charge.payerId,
            time: facts.time,
            keyId: facts.keyId,
            accountId: facts.accountId,
            group: facts.group,
            model: facts.model,
            channelId: facts.committed === undefined ? null : (facts.attempts[facts.committed]?.channelId ?? null),
            sellMicros: charge.micros,
            sellVersion: charge.version,
          },
        ];
  return { attempts, charges };
}

function committedUsage(facts: LedgerFacts): { usage: LedgerUsage; warnings: string[] } {
  if (facts.billed === undefined) return { usage: { inputTokens: 0, outputTokens: 0 }, warnings: [] };
  return checkTokenClasses(facts.billed, facts.upstreamProtocol);
}

function uncommittedUsage(attempt: AttemptFacts, estimatedInput: number | undefined): { usage: LedgerUsage; warnings: string[] } {
  const answered = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  if (!answered && !STOPPED_AFTER_SENDING.has(attempt.errorCode ?? '')) return { usage: { inputTokens: 0, outputTokens: 0 }, warnings: [] };
  if (estimatedInput === undefined) return { usage: { inputTokens: 0, outputTokens: 0 }, warnings: ['ledger:consumed-unknown'] };
  return { usage: { inputTokens: Math.max(0, Math.floor(estimatedInput)), outputTokens: 0 }, warnings: ['ledger:estimated-uncommitted-input'] };
}

/**
 * The upstream's usage object as JSON text, bounded: a usage object is a few hundred characters,
 * but the row must not grow with whatever an upstream puts in it. Serialised once per request,
 * when its ledger rows are built (never per stream chunk).
 */
export function rawUsageText(upstream: unknown): { text: string | null; truncated: boolean } {
  if (upstream === undefined || upstream === null) return { text: null, truncated: false };
  let text: string | undefined;
  try {
    text = JSON.stringify(upstream);
  } catch {
    text = undefined;
  }
  if (text === undefined) return { text: null, truncated: false };
  return text.length <= RAW_USAGE_MAX_CHARS ? { text, truncated: false } : { text: text.slice(0, RAW_USAGE_MAX_CHARS), truncated: true };
}

function hasTokens(usage: LedgerUsage): boolean {
  return usage.inputTokens > 0 || usage.outputTokens > 0;
}
