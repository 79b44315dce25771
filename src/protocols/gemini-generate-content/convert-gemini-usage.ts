import type { Usage } from '../../core/usage.ts';
import { keepUpstreamUsage } from '../shared/canonical-usage.ts';
import { isRecord } from '../shared/is-record.ts';
import type { GeminiUsageMetadata } from './gemini-wire.ts';

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Gemini `usageMetadata` → canonical usage. `candidatesTokenCount` excludes thoughts, so the
 * canonical output (which includes reasoning) adds them back; tool-use prompt tokens are
 * prompt tokens the caller pays for, so they count as input. Absent fields stay absent.
 */
export function decodeGeminiUsage(metadata: unknown): Usage | undefined {
  const usage = countGeminiUsage(metadata);
  return usage === undefined ? undefined : keepUpstreamUsage(usage, metadata);
}

/** `decodeGeminiUsage` without the upstream's object attached: a stream decoder reads every chunk's `usageMetadata` and attaches it only to the counts it passes on. */
export function countGeminiUsage(metadata: unknown): Usage | undefined {
  if (!isRecord(metadata)) return undefined;
  const prompt = count(metadata.promptTokenCount);
  const toolUsePrompt = count(metadata.toolUsePromptTokenCount);
  const candidates = count(metadata.candidatesTokenCount);
  const thoughts = count(metadata.thoughtsTokenCount);
  const cached = count(metadata.cachedContentTokenCount);
  const usage: Usage = {
    inputTokens: (prompt ?? 0) + (toolUsePrompt ?? 0),
    outputTokens: (candidates ?? 0) + (thoughts ?? 0),
  };
  if (cached !== undefined) usage.cacheReadTokens = cached;
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  return usage;
}

/** Canonical usage → `usageMetadata`, splitting reasoning back out of the output count. */
export function encodeGeminiUsage(usage: Usage): GeminiUsageMetadata {
  const thoughts = usage.reasoningTokens;
  const candidates = Math.max(0, usage.outputTokens - (thoughts ?? 0));
  const metadata: GeminiUsageMetadata = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: candidates,
    totalTokenCount: usage.inputTokens + candidates + (thoughts ?? 0),
  };
  if (thoughts !== undefined) metadata.thoughtsTokenCount = thoughts;
  if (usage.cacheReadTokens !== undefined) metadata.cachedContentTokenCount = usage.cacheReadTokens;
  return metadata;
}
