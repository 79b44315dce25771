import type { Usage } from '../../core/usage.ts';
import { keepUpstreamUsage } from '../shared/canonical-usage.ts';
import { isRecord } from '../shared/is-record.ts';

export interface OpenAiChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * An upstream `usage` object → canonical. Both sides count cached tokens inside the prompt
 * and reasoning inside the completion, so the numbers carry over unchanged. `undefined` when
 * the value is not a usage object at all (e.g. the `usage: null` on ordinary stream chunks).
 */
export function convertOpenAiUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = {
    inputTokens: count(raw.prompt_tokens) ?? 0,
    outputTokens: count(raw.completion_tokens) ?? 0,
  };
  const promptDetails = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : undefined;
  // DeepSeek reports cache hits outside the details object.
  const cached = count(promptDetails?.cached_tokens) ?? count(raw.prompt_cache_hit_tokens);
  if (cached !== undefined) usage.cacheReadTokens = cached;
  const completionDetails = isRecord(raw.completion_tokens_details) ? raw.completion_tokens_details : undefined;
  const reasoning = count(completionDetails?.reasoning_tokens);
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return keepUpstreamUsage(usage, raw);
}

/** Canonical → wire. Details objects appear only for counts the upstream actually reported. */
export function toOpenAiUsage(usage: Usage): OpenAiChatUsage {
  const wire: OpenAiChatUsage = {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
  if (usage.cacheReadTokens !== undefined) wire.prompt_tokens_details = { cached_tokens: usage.cacheReadTokens };
  if (usage.reasoningTokens !== undefined) {
    wire.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  }
  return wire;
}
