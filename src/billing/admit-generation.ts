import type { AccessServices } from '../access/access-services.ts';
import { hasRateLimits, UNLIMITED_RATE_LEASE } from '../access/rate-limiter.ts';
import type { Caller } from '../access/authenticate-key.ts';
import type { ChatRequest } from '../core/chat-request.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Usage } from '../core/usage.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { PaymentHold } from './account-billing.ts';
import { clampReportedUsage } from './clamp-reported-usage.ts';
import { computeCostMicros } from './compute-cost.ts';
import { estimateRequest, estimateReservationMicros, type RequestEstimate } from './estimate-reservation.ts';
import { maxOutputTokensFor } from './model-output-limits.ts';
import { resolvePrice, UNPRICED_WARNING } from './resolve-price.ts';
import { spendWindows } from './spend-windows.ts';

export interface AdmissionDeps {
  snapshot: { readonly current: Snapshot };
  access: Pick<AccessServices, 'rateLimiter' | 'balances' | 'billing' | 'strictPricing'> & { reservedOutputTokens?: number };
  runtime: RuntimeContext;
}

/** A request admitted under its key's price, rate limits, spend caps and balance. */
export interface Admission {
  /** Warnings for the usage row (an unpriced model). */
  warnings: string[];
  /** What pays (for the usage row): the key's balance, the user's wallet or a subscription. */
  payment: Pick<PaymentHold, 'paidBy' | 'subscriptionId' | 'userId'>;
  /** The local estimate of the request (from the shared decode); undefined if it cannot be decoded. */
  estimate(): RequestEstimate | undefined;
  /**
   * Bounds the upstream's usage by what the request allowed (see clampReportedUsage), with the
   * warnings for the row. The request is decoded for it only when it already was (a request
   * whose money is guarded) or the report claims more output than the model can give at all.
   */
  boundUsage(usage: Usage | undefined): { usage: Usage | undefined; warnings: string[] };
  /** What `usage` costs the payer (micro-USD), exactly as `finish` would settle it; 0 for an unpriced model. */
  quote(usage: Usage | undefined): number;
  /** Settles to the exact cost of `usage` (none = nothing to bill, a full refund); returns the cost. */
  finish(usage: Usage | undefined): Promise<number>;
}

/**
 * Everything that costs or counts, in the order a user would want to hear about it: strict
 * pricing (403 model_not_priced), rate limits (429), spend caps (403 spend_limit_reached) and
 * the balance (403 insufficient_balance). Each step that fails undoes the ones before it.
 * The request is decoded (once, shared with the relay) only when a limit or a balance needs
 * an estimate.
 */
export async function admitGeneration(
  deps: AdmissionDeps,
  caller: Caller,
  model: string,
  decodeRequest: () => { request: ChatRequest },
  /**
   * Input the upstream bills beyond the body: the context it keeps of a Responses chain it
   * holds (`previous_response_id` on a pinned chain). Reserved for, and billed for a cut stream.
   */
  heldContextTokens = 0,
): Promise<Admission> {
  const { key, group } = caller;
  const price = resolvePrice(deps.snapshot.current, model, deps.access.strictPricing);
  let estimated: RequestEstimate | undefined | null = null;
  const estimate = (): RequestEstimate | undefined => {
    if (estimated !== null) return estimated;
    try {
      const { request } = decodeRequest();
      estimated = estimateRequest(request, heldContextTokens);
    } catch {
      // The relay reports an undecodable body in the client's terms; here it only means "no estimate".
      estimated = undefined;
    }
    return estimated;
  };

  const guardsMoney =
    price !== undefined &&
    (key.balanceMicros !== null || Boolean(key.userId) || group.billing !== 'balance' || spendWindows(key.limits, deps.runtime.now()).length > 0);
  const tokensLimited = key.limits.tokensPerMinute !== undefined;
  const estimatedInput = tokensLimited ? (estimate()?.inputTokens ?? 0) : 0;

  // A key without rate limits skips the limiter's async call (its closures, window names and
  // await): ~9 us of Server-Timing's admit phase at c=1, for nothing it would do.
  const lease = hasRateLimits(key) ? await deps.access.rateLimiter.admit(key, estimatedInput) : UNLIMITED_RATE_LEASE;
  // Without a client cap the reply can run to the model's own maximum: hold for that.
  const uncapped = maxOutputTokensFor(model, deps.access.reservedOutputTokens);
  let hold: PaymentHold;
  try {
    const reserve = guardsMoney
      ? estimateReservationMicros(estimate() ?? { inputTokens: 0, maxOutputTokens: undefined }, price, group.priceMultiplier, uncapped)
      : 0;
    // What pays is decided by the group's billing mode (account-billing.ts): the key's balance,
    // the user's wallet or a subscription's quotas (403 subscription_* / insufficient_balance).
    hold = await deps.access.billing.hold(key, group, reserve, model);
  } catch (error) {
    await lease.release(estimatedInput);
    throw error;
  }

  let finished: Promise<number> | undefined;
  const quote = (usage: Usage | undefined): number =>
    usage !== undefined && price !== undefined ? computeCostMicros(usage, price, group.priceMultiplier) : 0;
  return {
    warnings: price === undefined ? [UNPRICED_WARNING] : [],
    payment: { paidBy: hold.paidBy, subscriptionId: hold.subscriptionId, userId: hold.userId },
    estimate,
    boundUsage(usage) {
      if (usage === undefined) return { usage, warnings: [] };
      return clampReportedUsage(usage, guardsMoney || usage.outputTokens > uncapped ? estimate() : undefined);
    },
    quote,
    finish(usage) {
      finished ??= (async () => {
        const cost = quote(usage);
        await Promise.all([hold.settle(cost), lease.release(usage ? usage.inputTokens + usage.outputTokens : 0)]);
        return cost;
      })();
      return finished;
    },
  };
}
