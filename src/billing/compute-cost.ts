import type { Usage } from '../core/usage.ts';
import type { ModelPrice } from '../domain/model-price.ts';

/**
 * The exact cost of one request in integer micro-USD. Prices are micro-USD per million
 * tokens; each token class is billed at its own price (cache reads and writes fall back to
 * the input price when the model has none). Rounded once, at the end, half up — so a
 * thousand one-token requests cost the same as their sum to within one micro-unit each,
 * never drifting through floating point.
 */
export function computeCostMicros(usage: Usage, price: ModelPrice, multiplier = 1): number {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const uncachedInput = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  // Every product stays below 2^53 for any realistic request (1e7 tokens × 1e9 µUSD/M).
  const picoUnits =
    uncachedInput * price.inputPerMillion +
    cacheRead * (price.cacheReadPerMillion ?? price.inputPerMillion) +
    cacheWrite * (price.cacheWritePerMillion ?? price.inputPerMillion) +
    usage.outputTokens * price.outputPerMillion;
  const scaled = multiplier === 1 ? picoUnits : picoUnits * multiplier;
  return Math.floor((scaled + 500_000) / 1_000_000);
}
