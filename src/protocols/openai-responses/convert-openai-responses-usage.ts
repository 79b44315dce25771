import type { Usage } from '../../core/usage.ts';
import { isRecord } from '../shared/is-record.ts';

export interface OpenAiResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Same convention as canonical: input includes cache reads, output includes reasoning. */
export function convertOpenAiResponsesUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = { inputTokens: count(raw.input_tokens) ?? 0, outputTokens: count(raw.output_tokens) ?? 0 };
  const cached = isRecord(raw.input_tokens_details) ? count(raw.input_tokens_details.cached_tokens) : undefined;
  if (cached !== undefined) usage.cacheReadTokens = cached;
  const reasoning = isRecord(raw.output_tokens_details) ? count(raw.output_tokens_details.reasoning_tokens) : undefined;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/**
 * Canonical → wire. The details objects are always present: the SDK types require them and
 * Codex rejects `response.completed` when a present details object lacks its integer.
 */
export function toOpenAiResponsesUsage(usage: Usage): OpenAiResponsesUsage {
  const input = Math.round(usage.inputTokens);
  const output = Math.round(usage.outputTokens);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: Math.round(usage.cacheReadTokens ?? 0) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: Math.round(usage.reasoningTokens ?? 0) },
    total_tokens: input + output,
  };
}
