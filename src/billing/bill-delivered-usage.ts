import { estimateTokensFromChars } from '../core/estimate-tokens.ts';
import type { Usage } from '../core/usage.ts';
import type { RequestEstimate } from './estimate-reservation.ts';

/** Usage was not (fully) reported by the upstream; the row's tokens are partly the gateway's estimate. */
export const ESTIMATED_USAGE_WARNING = 'estimated:usage';

/** What the gateway saw of a reply, to estimate what the upstream did not report. */
export interface DeliveredReply {
  /** An upstream reply was received (a plain reply, or a stream that began): its input was spent. */
  answered: boolean;
  /** Characters of text, reasoning and tool arguments delivered to the client. */
  deliveredChars: number;
}

/**
 * What to bill: the upstream's reported usage where it reported it, and an estimate for what
 * it left out, so that a reply without usage (or with none of a kind: zero or negative counts)
 * never costs nothing. Input missing → the request's estimated input; output missing → the
 * output actually delivered, at about four characters a token, never above what the client's
 * output cap (times its alternatives) allows. Nothing answered → nothing to bill.
 */
export function billDeliveredUsage(
  reported: Usage | undefined,
  delivered: DeliveredReply,
  estimate: () => RequestEstimate | undefined,
): { usage: Usage | undefined; warnings: string[] } {
  if (!delivered.answered) return { usage: reported, warnings: [] };
  const inputMissing = !(reported !== undefined && reported.inputTokens > 0);
  const outputMissing = !(reported !== undefined && reported.outputTokens > 0) && delivered.deliveredChars > 0;
  if (reported !== undefined && !inputMissing && !outputMissing) return { usage: reported, warnings: [] };
  const estimated = estimate();
  const cap = estimated?.maxOutputTokens === undefined ? undefined : estimated.maxOutputTokens * Math.max(1, Math.floor(estimated.candidateCount ?? 1) || 1);
  const deliveredTokens = estimateTokensFromChars(delivered.deliveredChars);
  const usage: Usage = {
    ...reported,
    inputTokens: inputMissing ? (estimated?.inputTokens ?? 0) : (reported?.inputTokens ?? 0),
    outputTokens: outputMissing ? Math.min(deliveredTokens, cap ?? deliveredTokens) : Math.max(0, reported?.outputTokens ?? 0),
  };
  return { usage, warnings: [ESTIMATED_USAGE_WARNING] };
}
