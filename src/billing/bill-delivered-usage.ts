import { estimateTokensFromChars } from './estimate-tokens.ts';
import type { Usage } from '../core/usage.ts';
import { allowedOutputTokens, type RequestEstimate } from './estimate-reservation.ts';

/** Usage was not (fully) reported by the upstream; the row's tokens are partly the gateway's estimate. */
export const ESTIMATED_USAGE_WARNING = 'estimated:usage';

/** What the gateway saw of a reply, to estimate what the upstream did not report. */
export interface DeliveredReply {
  /** An upstream reply was received (a plain reply, or a stream that began): its input was spent. */
  answered: boolean;
  /** Characters of text, reasoning (visible, signed or redacted) and tool arguments delivered to the client. */
  deliveredChars: number;
  /** The reply was cut before it finished (a stream that failed after it began). */
  cut?: boolean;
}

/**
 * What to bill: the upstream's reported usage where it reported it, and an estimate for what
 * it left out, so that a reply without usage (or with none of a kind: zero or negative counts)
 * never costs nothing. Input missing → the request's estimated input; output missing → the
 * output actually delivered, at about four characters a token, never above what the client's
 * output cap (times its alternatives) allows. Nothing answered → nothing to bill.
 *
 * A cut stream's missing input is billed at the reservation's bound (`boundInputTokens`: a
 * UTF-8 byte a token), not at four characters a token: the client decides when to cut, and at
 * four characters a token a Chinese prompt (about one token a character) would bill a quarter
 * of what the upstream charged. A reply that ran to its end without input usage (the
 * upstream's omission, not the client's) keeps the likelier estimate.
 *
 * A cut stream is billed at least what it delivered (the floor): its usage, when there is
 * any, is the provider's count at the start (Anthropic's message_start says one output
 * token), so a reasoning turn cut mid-thought would otherwise bill none of the reasoning the
 * client already received.
 */
export function billDeliveredUsage(
  reported: Usage | undefined,
  delivered: DeliveredReply,
  estimate: () => RequestEstimate | undefined,
): { usage: Usage | undefined; warnings: string[] } {
  if (!delivered.answered) return { usage: reported, warnings: [] };
  const inputMissing = !(reported !== undefined && reported.inputTokens > 0);
  const outputMissing = !(reported !== undefined && reported.outputTokens > 0) && delivered.deliveredChars > 0;
  const deliveredTokens = estimateTokensFromChars(delivered.deliveredChars);
  const belowFloor = delivered.cut === true && reported !== undefined && reported.outputTokens < deliveredTokens;
  if (reported !== undefined && !inputMissing && !outputMissing && !belowFloor) return { usage: reported, warnings: [] };
  const estimated = estimate();
  const cap = estimated === undefined ? undefined : allowedOutputTokens(estimated);
  const deliveredOutput = Math.min(deliveredTokens, cap ?? deliveredTokens);
  const reportedOutput = Math.max(0, reported?.outputTokens ?? 0);
  const usage: Usage = {
    ...reported,
    inputTokens: inputMissing ? estimatedInput(estimated, delivered.cut === true) : (reported?.inputTokens ?? 0),
    outputTokens: outputMissing ? deliveredOutput : delivered.cut === true ? Math.max(reportedOutput, deliveredOutput) : reportedOutput,
  };
  return { usage, warnings: [ESTIMATED_USAGE_WARNING] };
}

function estimatedInput(estimated: RequestEstimate | undefined, cut: boolean): number {
  if (estimated === undefined) return 0;
  return cut ? Math.max(estimated.inputTokens, estimated.inputTokensBound ?? 0) : estimated.inputTokens;
}
