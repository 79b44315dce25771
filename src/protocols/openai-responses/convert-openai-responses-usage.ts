import type { Usage } from '../../core/usage.ts';
import { keepUpstreamUsage } from '../shared/canonical-usage.ts';
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

/**
 * Same convention as canonical: input includes cache reads, output includes reasoning. The
 * response's `output` says how many web searches ran (one `web_search_call` item each), which
 * OpenAI bills apart from tokens and its usage object does not count.
 */
export function convertOpenAiResponsesUsage(raw: unknown, output?: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = { inputTokens: count(raw.input_tokens) ?? 0, outputTokens: count(raw.output_tokens) ?? 0 };
  const cached = isRecord(raw.input_tokens_details) ? count(raw.input_tokens_details.cached_tokens) : undefined;
  if (cached !== undefined) usage.cacheReadTokens = cached;
  const reasoning = isRecord(raw.output_tokens_details) ? count(raw.output_tokens_details.reasoning_tokens) : undefined;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  const searches = Array.isArray(output) ? output.filter((item) => isRecord(item) && item.type === 'web_search_call').length : 0;
  if (searches > 0) usage.webSearchRequests = searches;
  const images = imageGenerationCalls(output);
  if (images !== undefined) usage.images = images;
  return keepUpstreamUsage(usage, raw);
}

/**
 * The `image_generation` tool's images (one `image_generation_call` item each, with a result):
 * billed as images at the model's image price for their size × quality (`auto` when the item does
 * not say), not as text — OpenAI's usage object does not count them either.
 */
function imageGenerationCalls(output: unknown): Usage['images'] {
  if (!Array.isArray(output)) return undefined;
  const calls = output.filter(
    (item): item is Record<string, unknown> => isRecord(item) && item.type === 'image_generation_call' && typeof item.result === 'string' && item.result !== '',
  );
  if (calls.length === 0) return undefined;
  const first = calls[0]!;
  return {
    count: calls.length,
    size: typeof first.size === 'string' ? first.size : 'auto',
    quality: typeof first.quality === 'string' ? first.quality : 'auto',
  };
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
