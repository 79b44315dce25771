import type { AccessServices } from './access-services.ts';
import { hasRateLimits, UNLIMITED_RATE_LEASE } from './rate-limiter.ts';
import type { Caller } from '../access/authenticate-key.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Usage } from '../core/usage.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { PaymentHold } from './account-billing.ts';
import { clampReportedUsage } from './clamp-reported-usage.ts';
import { computeCostMicros } from './compute-cost.ts';
import type { ModelPrice } from '../domain/model-price.ts';
import { estimateReservationMicros, type RequestEstimate } from './estimate-reservation.ts';
import { maxOutputTokensFor } from './model-output-limits.ts';
import { resolvePrice, UNPRICED_WARNING } from '../access/resolve-price.ts';
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
  /** The sell-price version the request is billed at (the ledger's charge row names it); null: unpriced or a price from before versions. */
  priceVersion: string | null;
  /** What pays (for the usage row): the key's balance, the user's wallet or a subscription. */
  payment: Pick<PaymentHold, 'paidBy' | 'subscriptionId' | 'userId'>;
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
 * What the admission of one request will weigh, known before the request is decoded:
 * `needsEstimate` says whether it needs the request's estimate (a token rate limit, or money
 * to guard), so the pipeline decodes only then.
 */
export interface AdmissionPlan {
  caller: Caller;
  model: string;
  price: ModelPrice | undefined;
  guardsMoney: boolean;
  tokensLimited: boolean;
  needsEstimate: boolean;
}

/** `price`: the sell price when the caller resolved it already (the generation pipeline does so while authorizing). */
export function planAdmission(
  deps: AdmissionDeps,
  caller: Caller,
  model: string,
  price = resolvePrice(deps.snapshot.current, model, deps.access.strictPricing, caller.group.name, deps.runtime.now()),
): AdmissionPlan {
  const { key, group } = caller;
  const guardsMoney =
    price !== undefined &&
    (key.balanceMicros !== null || Boolean(key.userId) || group.billing !== 'balance' || spendWindows(key.limits, deps.runtime.now()).length > 0);
  const tokensLimited = key.limits.tokensPerMinute !== undefined;
  return { caller, model, price, guardsMoney, tokensLimited, needsEstimate: guardsMoney || tokensLimited };
}

/**
 * Everything that costs or counts, in the order a user would want to hear about it: strict
 * pricing (403 model_not_priced, from `planAdmission`), rate limits (429), spend caps (403
 * spend_limit_reached) and the balance (403 insufficient_balance). Each step that fails undoes
 * the ones before it. `estimate` gives the request's estimate (undefined when it cannot be
 * decoded); the pipeline has taken it already when `plan.needsEstimate` (its decode step).
 */
export async function admitGeneration(
  deps: AdmissionDeps,
  plan: AdmissionPlan,
  estimate: () => RequestEstimate | undefined,
  /** The most a media request can be billed for its images, audio or search units, beside its tokens. */
  heldMedia?: Pick<Usage, 'images' | 'media'>,
): Promise<Admission> {
  const {
    caller: { key, group },
    model,
    price,
  } = plan;
  const estimatedInput = plan.tokensLimited ? (estimate()?.inputTokens ?? 0) : 0;

  // A key without rate limits skips the limiter's async call (its closures, window names and
  // await): ~9 us of Server-Timing's admit phase at c=1, for nothing it would do.
  const lease = hasRateLimits(key) ? await deps.access.rateLimiter.admit(key, estimatedInput) : UNLIMITED_RATE_LEASE;
  // Without a client cap the reply can run to the model's own maximum: hold for that.
  const uncapped = maxOutputTokensFor(model, deps.access.reservedOutputTokens);
  let hold: PaymentHold;
  try {
    const reserve = plan.guardsMoney
      ? estimateReservationMicros(estimate() ?? { inputTokens: 0, maxOutputTokens: undefined }, price, group.priceMultiplier, uncapped) +
        (heldMedia === undefined || price === undefined
          ? 0
          : computeCostMicros({ inputTokens: 0, outputTokens: 0, ...heldMedia }, price, group.priceMultiplier))
      : 0;
    // What pays is decided by the group's billing mode (account-billing.ts): the key's balance,
    // the user's wallet or a subscription's quotas (403 subscription_* / insufficient_balance).
    hold = await deps.access.billing.hold(key, group, reserve, model);
  } catch (error) {
    await lease.release(estimatedInput);
    throw error;
  }

  let finished: Promise<number> | undefined;
  const quote = (usage: Usage | undefined): number => (usage !== undefined && price !== undefined ? computeCostMicros(usage, price, group.priceMultiplier) : 0);
  return {
    warnings: price === undefined ? [UNPRICED_WARNING] : [],
    priceVersion: price?.version ?? null,
    payment: { paidBy: hold.paidBy, subscriptionId: hold.subscriptionId, userId: hold.userId },
    boundUsage(usage) {
      if (usage === undefined) return { usage, warnings: [] };
      return clampReportedUsage(usage, plan.guardsMoney || usage.outputTokens > uncapped ? estimate() : undefined);
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
