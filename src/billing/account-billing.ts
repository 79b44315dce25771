import { GatewayError } from '../core/gateway-error.ts';
import type { Plan } from '../domain/plan.ts';
import { subscriptionStatus, type Subscription } from '../domain/subscription.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { ApiKey } from '../domain/api-key.ts';
import type { Group } from '../domain/group.ts';
import type { PaidBy } from '../domain/usage-log-entry.ts';
import type { BalanceMeter } from './balance-meter.ts';
import { formatUsd } from './format-usd.ts';
import type { QuotaShortfall, SubscriptionMeter } from './subscription-meter.ts';
import type { WalletMeter } from './wallet-meter.ts';
import { formatTime } from './format-time.ts';
import { joinPlans, type SettlementPlan } from './settlement-plan.ts';

/** Money held for one request, and what will pay for it. */
export interface PaymentHold {
  /** Null: nothing is charged (a key without balance or user in a `balance` group). */
  paidBy: PaidBy | null;
  subscriptionId: string | null;
  userId: string | null;
  /** What `settle` does, as data: another instance bills by it when this one dies mid-stream. */
  plan: SettlementPlan;
  /** Replaces the hold with the exact cost (0 refunds it all), to where it was held. Call once. */
  settle(costMicros: number): Promise<void>;
}

export interface AccountBillingDeps {
  balances: BalanceMeter;
  wallets: WalletMeter;
  subscriptions: SubscriptionMeter;
  snapshot: () => Snapshot;
  now: () => number;
}

/** A subscription of the key's user that can pay for a request to `group`, with its plan. */
export interface SubscriptionChoice {
  subscription: Subscription;
  plan: Plan;
}

/**
 * Decides what pays for a request and holds the money there, by the group's billing mode:
 * `balance` — the key's own balance, else its user's wallet, else nothing (an unlimited key);
 * `subscription` — an active subscription of the key's user to a plan for the group, within its
 * quotas, never the wallet; `subscription_then_balance` — the subscription while one has quota
 * left (or there is none usable), then as `balance`. The key's own spend caps apply in every mode.
 */
export class AccountBilling {
  constructor(private readonly deps: AccountBillingDeps) {}

  async hold(key: ApiKey, group: Group, amountMicros: number, model: string): Promise<PaymentHold> {
    if (group.billing === 'balance') return this.#holdBalance(key, amountMicros, model);

    const { usable, refusal } = findSubscriptions(this.deps.snapshot(), key, group, this.deps.now());
    if (usable.length === 0 && group.billing === 'subscription') throw refusal;

    const caps = await this.deps.balances.hold(key, amountMicros, model, { chargeKeyBalance: false });
    let shortfall: { choice: SubscriptionChoice; shortfall: QuotaShortfall } | undefined;
    try {
      for (const choice of usable) {
        const result = await this.deps.subscriptions.hold(choice.subscription, choice.plan, amountMicros);
        if ('hold' in result) {
          return {
            paidBy: 'subscription',
            subscriptionId: choice.subscription.id,
            userId: key.userId ?? null,
            plan: joinPlans(caps.plan, result.hold.plan),
            settle: async (cost) => {
              await Promise.all([caps.settle(cost), result.hold.settle(cost)]);
            },
          };
        }
        shortfall ??= { choice, shortfall: result.shortfall };
      }
    } catch (error) {
      await caps.settle(0);
      throw error;
    }
    await caps.settle(0);
    if (group.billing === 'subscription_then_balance') return this.#holdBalance(key, amountMicros, model);
    throw quotaExhausted(shortfall as NonNullable<typeof shortfall>, amountMicros);
  }

  async #holdBalance(key: ApiKey, amountMicros: number, model: string): Promise<PaymentHold> {
    const user = key.userId ? this.deps.snapshot().users.get(key.userId) : undefined;
    if (key.balanceMicros !== null || user === undefined) {
      const hold = await this.deps.balances.hold(key, amountMicros, model);
      return {
        paidBy: key.balanceMicros !== null ? 'key_balance' : null,
        subscriptionId: null,
        userId: key.userId ?? null,
        plan: hold.plan,
        settle: (cost) => hold.settle(cost),
      };
    }
    const caps = await this.deps.balances.hold(key, amountMicros, model);
    let wallet;
    try {
      wallet = await this.deps.wallets.hold(user, amountMicros, model);
    } catch (error) {
      await caps.settle(0);
      throw error;
    }
    return {
      paidBy: 'wallet',
      subscriptionId: null,
      userId: user.id,
      plan: joinPlans(caps.plan, wallet.plan),
      settle: async (cost) => {
        await Promise.all([caps.settle(cost), wallet.settle(cost)]);
      },
    };
  }
}

/**
 * The subscriptions that can pay for `group` now (soonest to expire first, so the one about
 * to lapse is used up first), and, when there is none, the refusal that explains why.
 */
export function findSubscriptions(snapshot: Snapshot, key: ApiKey, group: Group, now: number): { usable: SubscriptionChoice[]; refusal: GatewayError } {
  const howToGet = `Redeem a subscription code with POST /api/me/redeem, or ask the operator for a subscription${plansFor(snapshot, group.name)}.`;
  const user = key.userId ? snapshot.users.get(key.userId) : undefined;
  if (user === undefined) {
    return {
      usable: [],
      refusal: new GatewayError(
        'subscription_required',
        `Group "${group.name}" is paid by subscription, and this API key belongs to no account, so it cannot hold one. Ask the operator to attach the key to an account with a subscription${plansFor(snapshot, group.name)}.`,
      ),
    };
  }
  const mine = (snapshot.subscriptionsByUser.get(user.id) ?? []).flatMap((subscription) => {
    const plan = snapshot.plans.get(subscription.planId);
    return plan !== undefined && plan.group === group.name ? [{ subscription, plan }] : [];
  });
  const usable = mine
    .filter(({ subscription }) => subscriptionStatus(subscription, now) === 'active' && subscription.startsAt <= now)
    .sort((a, b) => a.subscription.expiresAt - b.subscription.expiresAt);
  if (usable.length > 0) return { usable, refusal: new GatewayError('subscription_required', howToGet) };

  const suspended = mine.find(({ subscription }) => subscription.suspended && subscription.expiresAt > now);
  if (suspended) {
    return {
      usable,
      refusal: new GatewayError(
        'subscription_suspended',
        `Your subscription to plan "${suspended.plan.name}" (group "${group.name}") was suspended by the operator. Ask the operator to reactivate it.`,
      ),
    };
  }
  const future = mine.find(({ subscription }) => !subscription.suspended && subscription.startsAt > now);
  if (future) {
    return {
      usable,
      refusal: new GatewayError(
        'subscription_required',
        `Your subscription to plan "${future.plan.name}" (group "${group.name}") starts on ${formatTime(future.subscription.startsAt)}; it cannot be used before then.`,
      ),
    };
  }
  const expired = mine.sort((a, b) => b.subscription.expiresAt - a.subscription.expiresAt)[0];
  if (expired) {
    return {
      usable,
      refusal: new GatewayError(
        'subscription_expired',
        `Your subscription to plan "${expired.plan.name}" (group "${group.name}") expired on ${formatTime(expired.subscription.expiresAt)}. ${howToGet.replace('a subscription', 'a renewal')}`,
      ),
    };
  }
  return {
    usable,
    refusal: new GatewayError(
      'subscription_required',
      `Group "${group.name}" is paid by subscription, and account "${user.name}" has no subscription to a plan for it. ${howToGet}`,
    ),
  };
}

export function quotaExhausted({ choice, shortfall }: { choice: SubscriptionChoice; shortfall: QuotaShortfall }, amountMicros: number): GatewayError {
  const quota = `${shortfall.window} quota of ${formatUsd(shortfall.quotaMicros)}`;
  const when =
    shortfall.resetsAt === null
      ? `The total quota does not reset; the subscription runs until ${formatTime(choice.subscription.expiresAt)}.`
      : `It resets on ${formatTime(shortfall.resetsAt)}.`;
  // Three different situations, said as they are: spent, too little left, or a request larger than the whole quota.
  const state =
    shortfall.usedMicros >= shortfall.quotaMicros
      ? `has used up its ${quota} (${formatUsd(shortfall.usedMicros)} used).`
      : shortfall.usedMicros === 0
        ? `cannot cover this request: it may cost up to ${formatUsd(amountMicros)}, more than the whole ${quota}. Ask for fewer output tokens (max_tokens) or a larger plan.`
        : `has too little of its ${quota} left for this request (${formatUsd(shortfall.usedMicros)} used; this request may cost up to ${formatUsd(amountMicros)}).`;
  return new GatewayError(
    'subscription_quota_exhausted',
    `Your subscription to plan "${choice.plan.name}" ${state} ${when} Wait until then, or ask the operator for more.`,
  );
}

function plansFor(snapshot: Snapshot, group: string): string {
  const names = [...snapshot.plans.values()].filter((plan) => plan.group === group).map((plan) => `"${plan.name}"`);
  return names.length === 0 ? '' : ` (plans for it: ${names.join(', ')})`;
}
