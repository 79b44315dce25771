import type { ModelPrice } from '../domain/model-price.ts';
import { computeCostMicros } from './compute-cost.ts';

/**
 * Output tokens assumed when the client sets no limit. Large enough for most answers, small
 * enough that a modest balance still admits a request; a longer answer settles above the
 * reservation, and the balance may then dip below zero by that difference once.
 */
export const DEFAULT_OUTPUT_ALLOWANCE = 4_096;

export interface RequestEstimate {
  inputTokens: number;
  /** The client's own output cap, when it set one. */
  maxOutputTokens: number | undefined;
}

/** What to hold before a request: its estimated input plus its largest possible output, priced. */
export function estimateReservationMicros(estimate: RequestEstimate, price: ModelPrice | undefined, multiplier: number): number {
  if (price === undefined) return 0;
  const outputTokens = estimate.maxOutputTokens ?? DEFAULT_OUTPUT_ALLOWANCE;
  return computeCostMicros({ inputTokens: estimate.inputTokens, outputTokens }, price, multiplier);
}
