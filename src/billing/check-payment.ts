import type { GatewayErrorCode } from '../core/gateway-error.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { ApiKey } from '../domain/api-key.ts';
import type { Group } from '../domain/group.ts';
import { findSubscriptions, quotaExhausted } from './account-billing.ts';
import { formatUsd } from './format-usd.ts';
import type { SubscriptionMeter } from './subscription-meter.ts';
import type { WalletMeter } from './wallet-meter.ts';
import { formatTime } from './format-time.ts';

export interface PaymentCheck {
  verdict: 'pass' | 'fail';
  /** The error code a request would get now, when it would be refused. */
  code: GatewayErrorCode | null;
  detail: string;
}

/**
 * The model check's subscription step: what would pay for a request of this key now, or which
 * 403 it would get (subscription_required / _expired / _suspended / _quota_exhausted,
 * insufficient_balance). Read-only: it looks at the counters, it holds nothing.
 */
export async function checkPayment(input: {
  snapshot: Snapshot;
  key: ApiKey;
  group: Group;
  now: number;
  wallets: WalletMeter;
  subscriptions: SubscriptionMeter;
  keyBalanceMicros: number | null;
}): Promise<PaymentCheck> {
  const { snapshot, key, group } = input;
  const balanceCheck = async (prefix: string): Promise<PaymentCheck> => {
    const user = key.userId ? snapshot.users.get(key.userId) : undefined;
    if (key.balanceMicros !== null || user === undefined) {
      if (input.keyBalanceMicros === null) return { verdict: 'pass', code: null, detail: `${prefix}Requests are not limited by a balance.` };
      return input.keyBalanceMicros > 0
        ? { verdict: 'pass', code: null, detail: `${prefix}Requests are paid from the key's balance (${formatUsd(input.keyBalanceMicros)} left).` }
        : { verdict: 'fail', code: 'insufficient_balance', detail: `${prefix}The key's balance is used up (${formatUsd(input.keyBalanceMicros)}); top it up.` };
    }
    const wallet = await input.wallets.available(user);
    return wallet > 0
      ? { verdict: 'pass', code: null, detail: `${prefix}Requests are paid from the wallet of account "${user.name}" (${formatUsd(wallet)} left).` }
      : {
          verdict: 'fail',
          code: 'insufficient_balance',
          detail: `${prefix}The wallet of account "${user.name}" is empty (${formatUsd(wallet)}); redeem a code (POST /api/me/redeem) or ask the operator.`,
        };
  };
  if (group.billing === 'balance') return balanceCheck('');

  const { usable, refusal } = findSubscriptions(snapshot, key, group, input.now);
  const fallback = group.billing === 'subscription_then_balance';
  let firstExhausted: PaymentCheck | undefined;
  for (const choice of usable) {
    const usage = await input.subscriptions.usage(choice.subscription, choice.plan);
    const full = usage.find((entry) => entry.quotaMicros !== null && entry.usedMicros >= entry.quotaMicros);
    if (!full) {
      const left = usage
        .filter((entry) => entry.quotaMicros !== null)
        .map(
          (entry) =>
            `${entry.window} ${formatUsd((entry.quotaMicros ?? 0) - entry.usedMicros)} left${entry.resetsAt === null ? '' : ` (resets ${formatTime(entry.resetsAt)})`}`,
        );
      return {
        verdict: 'pass',
        code: null,
        detail: `Group "${group.name}" is paid by subscription: plan "${choice.plan.name}" until ${formatTime(choice.subscription.expiresAt)}${left.length > 0 ? `; ${left.join(', ')}` : ''}.`,
      };
    }
    firstExhausted ??= {
      verdict: 'fail',
      code: 'subscription_quota_exhausted',
      detail: quotaExhausted(
        { choice, shortfall: { window: full.window, quotaMicros: full.quotaMicros ?? 0, usedMicros: full.usedMicros, resetsAt: full.resetsAt } },
        0,
      ).message,
    };
  }
  const problem = firstExhausted ?? { verdict: 'fail' as const, code: refusal.code, detail: refusal.message };
  if (fallback) return balanceCheck(`No subscription can pay now (${problem.detail}) Group "${group.name}" then falls back to the balance. `);
  return problem;
}
