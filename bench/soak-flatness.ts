import type { SoakResult } from './soak.ts';

/**
 * RSS after warm-up does not grow: the median of the last third of the slices is within 10 % of
 * the median of the first third (`trend`). A single slice lands anywhere in the collector's
 * sawtooth (young and old generation filling and being collected), so comparing one high slice
 * with the first one measured the sawtooth's height, not growth; the height is reported as
 * `swing` (largest minus smallest slice, over the median) and `spread` keeps the old figure
 * (largest slice over the first one) for comparison with earlier runs.
 */
export function soakIsFlat(result: SoakResult): { flat: boolean; trend: number; swing: number; spread: number } {
  const held = result.rssMiB.slice(result.warmupSlices);
  const third = Math.max(1, Math.floor(held.length / 3));
  const early = median(held.slice(0, third));
  const late = median(held.slice(-third));
  const trend = (late - early) / early;
  const first = held[0] ?? Number.NaN;
  const spread = (Math.max(...held) - first) / first;
  const swing = (Math.max(...held) - Math.min(...held)) / median(held);
  return { flat: trend <= 0.1, trend, swing, spread };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
}
