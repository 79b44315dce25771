import type { Admission } from './admit-generation.ts';
import { billDeliveredUsage, type DeliveredReply } from './bill-delivered-usage.ts';
import type { RequestEstimate } from './estimate-reservation.ts';
import type { Usage } from '../core/usage.ts';

/**
 * What a reply is billed for: the upstream's usage with what it left out estimated
 * (billDeliveredUsage), bounded by what the request allowed. Pure, so the cost a plain reply
 * shows in its header (and a stream in its last usage chunk) is the cost settled after it.
 */
export function settleUsage(
  admission: Admission,
  estimate: () => RequestEstimate | undefined,
  reported: Usage | undefined,
  delivered: DeliveredReply,
): { usage: Usage | undefined; warnings: string[] } {
  const billed = billDeliveredUsage(reported, delivered, estimate);
  const bounded = admission.boundUsage(billed.usage);
  return { usage: bounded.usage, warnings: [...billed.warnings, ...bounded.warnings] };
}
