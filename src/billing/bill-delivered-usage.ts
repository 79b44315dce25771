import { estimateTokensFromChars } from '../core/estimate-tokens.ts';
import type { Usage } from '../core/usage.ts';
import type { RequestEstimate } from './estimate-reservation.ts';

/** Usage was not reported by the upstream; the row's tokens are the gateway's estimate. */
export const ESTIMATED_USAGE_WARNING = 'estimated:usage';

/**
 * What to bill: the upstream's reported usage, or, for a stream cut before the upstream
 * reported any, the estimated input plus the output actually delivered to the client.
 */
export function billDeliveredUsage(
  reported: Usage | undefined,
  deliveredChars: number,
  estimate: () => RequestEstimate | undefined,
): { usage: Usage | undefined; warnings: string[] } {
  if (reported) return { usage: reported, warnings: [] };
  if (deliveredChars === 0) return { usage: undefined, warnings: [] };
  const estimated = estimate();
  // A cut stream cannot have produced more than the client's own output limit.
  const delivered = estimateTokensFromChars(deliveredChars);
  return {
    usage: { inputTokens: estimated?.inputTokens ?? 0, outputTokens: Math.min(delivered, estimated?.maxOutputTokens ?? delivered) },
    warnings: [ESTIMATED_USAGE_WARNING],
  };
}
