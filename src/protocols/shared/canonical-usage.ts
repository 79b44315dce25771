import type { Usage } from '../../core/usage.ts';

// The helpers codecs fill the canonical usage (core/usage.ts) with; only codecs build one from a wire object.

/** A reply's usage before the upstream reported any. */
export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0 });

/**
 * Attaches the upstream's usage object to its decoded form (see `Usage.upstream`). Codecs call it
 * where usage is decoded once per reply or stream end, never per stream chunk.
 */
export function keepUpstreamUsage<T extends Usage>(usage: T, upstream: unknown): T {
  Object.defineProperty(usage, 'upstream', { value: upstream, enumerable: false, configurable: true, writable: true });
  return usage;
}

/** Input tokens that were neither read from nor written to a prompt cache. */
export function uncachedInputTokens(usage: Usage): number {
  return Math.max(0, usage.inputTokens - (usage.cacheReadTokens ?? 0) - (usage.cacheWriteTokens ?? 0));
}
