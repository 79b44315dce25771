import type { Usage } from '../core/usage.ts';
import { allowedOutputTokens, type RequestEstimate } from './estimate-reservation.ts';

/** The upstream reported more than the request allowed; the row bills what it allowed. */
export const CLAMPED_OUTPUT_WARNING = 'clamped:usage.output_tokens';
/** The upstream reported more cache tokens than input tokens (which include them). */
export const CLAMPED_CACHE_WARNING = 'clamped:usage.cache_tokens';

/**
 * Bounds an upstream's usage report by what the request itself allowed, so a broken or hostile
 * upstream (or a simulator of one) cannot bill a tenant past the request's own limits: output
 * at most the client's cap times the alternatives asked for (a cap the gateway reserved for,
 * and the provider enforces), reasoning at most the output it is part of, and cache reads plus
 * writes at most the input they are part of. A request without a cap is left to the absolute
 * bound (MAX_BILLED_TOKENS): the model's real maximum is not known exactly enough to bill
 * below it. Each clamp names itself in a warning on the usage row.
 */
export function clampReportedUsage(usage: Usage, estimate: RequestEstimate | undefined): { usage: Usage; warnings: string[] } {
  const warnings: string[] = [];
  let clamped = usage;
  const cap = estimate === undefined ? undefined : allowedOutputTokens(estimate);
  if (cap !== undefined && usage.outputTokens > cap) {
    clamped = { ...clamped, outputTokens: cap };
    warnings.push(CLAMPED_OUTPUT_WARNING);
  }
  if (clamped.reasoningTokens !== undefined && clamped.reasoningTokens > clamped.outputTokens) {
    clamped = { ...clamped, reasoningTokens: Math.max(0, clamped.outputTokens) };
  }
  const input = Math.max(0, clamped.inputTokens);
  const cacheRead = clamped.cacheReadTokens ?? 0;
  const cacheWrite = clamped.cacheWriteTokens ?? 0;
  if (cacheRead + cacheWrite > input) {
    const read = Math.min(Math.max(0, cacheRead), input);
    clamped = {
      ...clamped,
      ...(clamped.cacheReadTokens === undefined ? {} : { cacheReadTokens: read }),
      ...(clamped.cacheWriteTokens === undefined ? {} : { cacheWriteTokens: Math.min(Math.max(0, cacheWrite), input - read) }),
    };
    warnings.push(CLAMPED_CACHE_WARNING);
  }
  return { usage: clamped, warnings };
}
