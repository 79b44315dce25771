import type { LedgerUsage } from '../domain/ledger-entry.ts';

/** The counts a ledger row keeps, checked; `warnings` name each rule the report broke. */
export interface CheckedUsage {
  usage: LedgerUsage;
  warnings: string[];
}

const COUNTS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'cacheWrite1hTokens', 'reasoningTokens', 'webSearchRequests'] as const;

/**
 * The token-class rules, checked before anything is priced (the `core/usage.ts` convention:
 * `inputTokens` is the whole prompt, cache reads and writes inside it; `outputTokens` everything
 * generated, reasoning inside it): no negative or fractional count; cache reads + writes within
 * the input; 1-hour writes within the writes (the 5-minute ones are the rest, so 5 m + 1 h always
 * equals the total written and neither is counted twice); reasoning within the output. A report
 * that breaks one is corrected to the estimate that charges less — never a negative count, never
 * a class counted twice — and the row says what was corrected (`ledger:<rule>`).
 * Per protocol: Anthropic's `cache_creation` split must add up to its `cache_creation_input_tokens`.
 */
export function checkTokenClasses(reported: LedgerUsage, protocol: string | null, raw?: unknown): CheckedUsage {
  const warnings: string[] = [];
  const usage: LedgerUsage = { inputTokens: 0, outputTokens: 0 };
  for (const field of COUNTS) {
    const value = reported[field];
    if (value === undefined) continue;
    const whole = Number.isFinite(value) ? Math.max(0, Math.floor(value)) : 0;
    if (whole !== value) warnings.push(`ledger:not-a-count:${field}`);
    usage[field] = whole;
  }
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  if (read + write > usage.inputTokens) {
    warnings.push('ledger:cache-exceeds-input');
    if (usage.cacheReadTokens !== undefined) usage.cacheReadTokens = Math.min(read, usage.inputTokens);
    if (usage.cacheWriteTokens !== undefined) usage.cacheWriteTokens = Math.min(write, usage.inputTokens - (usage.cacheReadTokens ?? 0));
  }
  if (usage.cacheWrite1hTokens !== undefined && usage.cacheWrite1hTokens > (usage.cacheWriteTokens ?? 0)) {
    warnings.push('ledger:cache-write-classes');
    usage.cacheWrite1hTokens = usage.cacheWriteTokens ?? 0;
  }
  if (usage.reasoningTokens !== undefined && usage.reasoningTokens > usage.outputTokens) {
    warnings.push('ledger:reasoning-exceeds-output');
    usage.reasoningTokens = usage.outputTokens;
  }
  if (protocol === 'anthropic-messages' && anthropicWriteSplitDisagrees(raw)) warnings.push('ledger:anthropic-cache-write-split');
  return { usage, warnings };
}

/** `cache_creation.ephemeral_5m_input_tokens + ephemeral_1h_input_tokens` ≠ `cache_creation_input_tokens`. */
function anthropicWriteSplitDisagrees(raw: unknown): boolean {
  if (raw === null || typeof raw !== 'object') return false;
  const record = raw as Record<string, unknown>;
  const split = record.cache_creation;
  if (split === null || typeof split !== 'object' || typeof record.cache_creation_input_tokens !== 'number') return false;
  const parts = split as Record<string, unknown>;
  const sum = Number(parts.ephemeral_5m_input_tokens ?? 0) + Number(parts.ephemeral_1h_input_tokens ?? 0);
  return sum !== record.cache_creation_input_tokens;
}
