import type { ModelPrice } from '../domain/model-price.ts';
import type { ChatRequest } from '../core/chat-request.ts';
import { estimateInputTokens } from './estimate-tokens.ts';
import { boundInputTokens } from './bound-input-tokens.ts';
import { computeCostMicros } from './compute-cost.ts';
import { DEFAULT_RESERVED_OUTPUT_TOKENS } from './model-output-limits.ts';

/** Alternatives per request beyond this are never reserved for (OpenAI caps `n` at 128). */
const MAX_CANDIDATES = 128;

export interface RequestEstimate {
  /** The likely input tokens (about four characters each), for billing a cut stream and token rate limits. */
  inputTokens: number;
  /** An upper bound on the input tokens (see `boundInputTokens`), never low: what a reservation holds. */
  inputTokensBound?: number;
  /** The client's own output cap, when it set one. */
  maxOutputTokens: number | undefined;
  /** Alternatives asked for (OpenAI `n`, Gemini `candidateCount`): each one is a full output. */
  candidateCount?: number | undefined;
}

/**
 * The estimate a reservation is made from: the input bound, the output cap and the number of
 * alternatives. `heldContextTokens`: input the upstream adds from a context it keeps.
 */
export function estimateRequest(request: ChatRequest, heldContextTokens = 0): RequestEstimate {
  return {
    inputTokens: estimateInputTokens(request) + heldContextTokens,
    inputTokensBound: boundInputTokens(request) + heldContextTokens,
    maxOutputTokens: request.maxOutputTokens,
    candidateCount: request.candidateCount,
  };
}

/**
 * What to hold before a request: its bounded input plus its largest possible output — the
 * client's cap, or without one the model's own maximum (`maxOutputTokensFor`) — times the
 * number of alternatives asked for, since each is billed as output — priced.
 */
export function estimateReservationMicros(
  estimate: RequestEstimate,
  price: ModelPrice | undefined,
  multiplier: number,
  uncappedOutputTokens: number = DEFAULT_RESERVED_OUTPUT_TOKENS,
): number {
  if (price === undefined) return 0;
  const outputTokens = allowedOutputTokens(estimate, uncappedOutputTokens) as number;
  const inputTokens = Math.max(estimate.inputTokens, estimate.inputTokensBound ?? 0);
  return computeCostMicros({ inputTokens, outputTokens }, price, multiplier);
}

/**
 * The output a request allows: its cap (or, given, the uncapped allowance) times the
 * alternatives it asked for, each a full output; undefined for an uncapped request without one.
 */
export function allowedOutputTokens(estimate: Pick<RequestEstimate, 'maxOutputTokens' | 'candidateCount'>, uncapped?: number): number | undefined {
  const cap = estimate.maxOutputTokens ?? uncapped;
  if (cap === undefined) return undefined;
  return cap * Math.min(MAX_CANDIDATES, Math.max(1, Math.floor(estimate.candidateCount ?? 1) || 1));
}
