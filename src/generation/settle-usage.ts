import type { Admission } from '../billing/admit-generation.ts';
import { billDeliveredUsage, type DeliveredReply } from '../billing/bill-delivered-usage.ts';
import type { RequestEstimate } from '../billing/estimate-reservation.ts';
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

/** Takes OpenRouter's `usage` accounting field off an OpenAI chat body (no upstream knows it); undefined when it has none. */
export function takeUsageAccounting(body: Record<string, unknown>): { body: Record<string, unknown>; include: boolean } | undefined {
  if (!('usage' in body)) return undefined;
  const { usage, ...rest } = body;
  const include = typeof usage === 'object' && usage !== null && (usage as Record<string, unknown>).include === true;
  return { body: rest, include };
}
