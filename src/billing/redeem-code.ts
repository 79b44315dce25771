import { GatewayError } from '../core/gateway-error.ts';
import type { Plan } from '../domain/plan.ts';
import type { RedemptionCode } from '../domain/redemption-code.ts';
import { hashApiKey } from '../access/hash-api-key.ts';
import { randomBase62 } from '../store/random-base62.ts';
import type { ApiKey } from '../domain/api-key.ts';
import type { Store } from '../store/store.ts';
import { formatUsd } from './format-usd.ts';
import { formatTime } from './format-time.ts';

const DAY = 86_400_000;

/**
 * Who redeems: a key (its id, its user if any, its own balance), or an account signed in to the
 * portal without a key (`id` null: balance codes go to the wallet, subscriptions to the user).
 */
export type RedemptionHolder = Pick<ApiKey, 'balanceMicros'> & { id: string | null; userId?: string | null | undefined };

/** A new redemption code: `rc-` and 24 base62 characters (about 142 bits), so a plain SHA-256 is a safe hash. */
export function generateRedemptionCode(): string {
  return `rc-${randomBase62(24)}`;
}

export const hashRedemptionCode = (code: string): string => hashApiKey(code.trim());

export interface RedeemResult {
  kind: RedemptionCode['kind'];
  /** Balance codes: what was added, and where. */
  amountMicros?: number;
  to: 'wallet' | 'key_balance' | 'subscription';
  subscriptionId?: string;
  plan?: Plan;
  startsAt?: number;
  expiresAt?: number;
}

/**
 * Redeems a code for the key's holder. The database decides single use (see
 * RedemptionCodeRepository.redeem): of any number of concurrent calls exactly one succeeds, the
 * others get 400 invalid_redemption_code saying it was used. A balance code tops up the key's
 * user's wallet, or the key's own balance for a key without a user; a subscription code grants
 * its plan to the key's user, starting when the user's latest subscription to the same plan ends
 * (so renewals queue up instead of stacking quotas). A code that cannot apply to this key is
 * left unused.
 */
export async function redeemCode(store: Store, key: RedemptionHolder, code: string, now: number): Promise<RedeemResult> {
  const codeHash = hashRedemptionCode(code);
  // Everything the grant needs is read before the redeeming transaction: on SQLite a query
  // outside the transaction would wait for it (one connection), so the grant only writes.
  const known = await store.redemptionCodes.findByHash(codeHash);
  const plan = known?.planId ? await store.plans.find(known.planId) : undefined;
  const samePlan =
    plan && key.userId
      ? (await store.subscriptions.list({ userId: key.userId })).filter(
          (subscription) => subscription.planId === plan.id && !subscription.suspended && subscription.expiresAt > now,
        )
      : [];
  let result: RedeemResult | undefined;
  const outcome = await store.redemptionCodes.redeem(codeHash, { userId: key.userId ?? null, keyId: key.id }, now, async (found, accounts) => {
    if (found.kind === 'balance') {
      const amount = found.amountMicros ?? 0;
      if (key.userId) {
        await accounts.addUserBalance(key.userId, amount);
        result = { kind: 'balance', amountMicros: amount, to: 'wallet' };
      } else if (key.balanceMicros !== null && key.id !== null) {
        await accounts.addKeyBalance(key.id, amount);
        result = { kind: 'balance', amountMicros: amount, to: 'key_balance' };
      } else {
        throw new GatewayError(
          'invalid_request',
          'This API key has no balance to add to (it is not limited by one) and belongs to no account; the code was not used. Redeem it with a key that has a balance or an account.',
          { param: 'code' },
        );
      }
      return;
    }
    if (!key.userId || plan === undefined || plan.id !== found.planId) {
      throw new GatewayError(
        'invalid_request',
        plan === undefined
          ? 'The plan this code grants no longer exists; the code was not used. Ask the operator.'
          : 'A subscription belongs to an account, and this API key belongs to none; the code was not used. Ask the operator to attach the key to an account, then redeem the code again.',
        { param: 'code' },
      );
    }
    const startsAt = Math.max(now, ...samePlan.map((subscription) => subscription.expiresAt));
    const expiresAt = startsAt + plan.durationDays * DAY;
    const subscription = await accounts.createSubscription({ userId: key.userId, planId: plan.id, startsAt, expiresAt });
    result = { kind: 'subscription', to: 'subscription', subscriptionId: subscription.id, plan, startsAt, expiresAt };
  });
  if (outcome.redeemed && result) return result;
  throw invalidCode(outcome.code);
}

function invalidCode(code: RedemptionCode | undefined): GatewayError {
  if (code === undefined) {
    return new GatewayError('invalid_redemption_code', 'This redemption code is unknown: check that it was copied completely (codes look like rc-…).', {
      param: 'code',
    });
  }
  if (code.usedAt !== null) {
    return new GatewayError('invalid_redemption_code', `This redemption code was already used, on ${formatTime(code.usedAt)}; each code works once.`, {
      param: 'code',
    });
  }
  return new GatewayError('invalid_redemption_code', `This redemption code expired on ${formatTime(code.expiresAt ?? 0)}; ask the operator for a new one.`, {
    param: 'code',
  });
}

export function describeRedemption(result: RedeemResult): string {
  if (result.kind === 'balance') return `${formatUsd(result.amountMicros ?? 0)} added to the ${result.to === 'wallet' ? 'account wallet' : "key's balance"}.`;
  return `Subscription to plan "${result.plan?.name}" granted from ${formatTime(result.startsAt ?? 0)} to ${formatTime(result.expiresAt ?? 0)}.`;
}
