import type { WindowUsage } from '../billing/subscription-meter.ts';
import type { Plan, QuotaWindow } from '../domain/plan.ts';
import { redemptionCodeState, type RedemptionCode } from '../domain/redemption-code.ts';
import { subscriptionStatus, type Subscription } from '../domain/subscription.ts';
import type { User } from '../domain/user.ts';
import { microsToUsd } from '../domain/money.ts';
import type { AdminPlanView, AdminRedemptionCodeView, AdminSubscriptionView, AdminUserView } from '../domain/account-admin-api.ts';

/** The answer types are declared in domain/account-admin-api.ts, shared with the console. */
export type { AdminPlanView, AdminRedemptionCodeView, AdminUserView };
export type SubscriptionView = AdminSubscriptionView;

const iso = (time: number | null): string | null => (time === null ? null : new Date(time).toISOString());

/** A user as the admin API shows it: never the password or its hash; the live wallet as `balance`. */
export function userView(user: User, balanceMicros: number): AdminUserView {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    hasPassword: user.passwordHash !== null,
    balance: microsToUsd(balanceMicros),
    available: microsToUsd(balanceMicros),
    spent: microsToUsd(user.spentMicros),
    enabled: user.enabled,
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
  };
}

export function planView(plan: Plan): AdminPlanView {
  const quota: AdminPlanView['quota'] = {};
  for (const [window, micros] of Object.entries(plan.quota) as Array<[QuotaWindow, number | undefined]>)
    if (micros !== undefined) quota[window] = microsToUsd(micros);
  return {
    id: plan.id,
    name: plan.name,
    group: plan.group,
    durationDays: plan.durationDays,
    quota,
    price: plan.priceMicros === null ? null : microsToUsd(plan.priceMicros),
    description: plan.description,
    createdAt: iso(plan.createdAt),
    updatedAt: iso(plan.updatedAt),
  };
}

/**
 * `{id, user, plan, group, status, startsAt, expiresAt, usage, resetsAt}` as the contract has
 * it (USD), plus the names and each window's quota and what remains of it.
 */
export function subscriptionView(
  subscription: Subscription,
  plan: Plan | undefined,
  user: User | undefined,
  usage: WindowUsage[],
  now: number,
): SubscriptionView {
  const byWindow = new Map(usage.map((entry) => [entry.window, entry]));
  const used = (window: QuotaWindow) => microsToUsd(byWindow.get(window)?.usedMicros ?? 0);
  const resets = (window: Exclude<QuotaWindow, 'total'>) => iso(byWindow.get(window)?.resetsAt ?? null);
  return {
    id: subscription.id,
    user: subscription.userId,
    userName: user?.name ?? null,
    plan: subscription.planId,
    planName: plan?.name ?? null,
    group: plan?.group ?? null,
    status: subscriptionStatus(subscription, now),
    startsAt: iso(subscription.startsAt),
    expiresAt: iso(subscription.expiresAt),
    usage: { daily: used('daily'), weekly: used('weekly'), monthly: used('monthly'), total: used('total') },
    resetsAt: { daily: resets('daily'), weekly: resets('weekly'), monthly: resets('monthly') },
    quota: Object.fromEntries(usage.map((entry) => [entry.window, entry.quotaMicros === null ? null : microsToUsd(entry.quotaMicros)])) as Record<
      QuotaWindow,
      number | null
    >,
    remaining: Object.fromEntries(
      usage.map((entry) => [entry.window, entry.quotaMicros === null ? null : microsToUsd(Math.max(entry.quotaMicros - entry.usedMicros, 0))]),
    ) as Record<QuotaWindow, number | null>,
  };
}

/** Never the code itself (only its hash is stored). */
export function redemptionCodeView(code: RedemptionCode, plan: Plan | undefined, now: number): AdminRedemptionCodeView {
  return {
    id: code.id,
    kind: code.kind,
    amount: code.amountMicros === null ? null : microsToUsd(code.amountMicros),
    plan: code.planId,
    planName: plan?.name ?? null,
    state: redemptionCodeState(code, now),
    usedAt: iso(code.usedAt),
    usedBy: code.usedAt === null ? null : { user: code.usedByUserId, key: code.usedByKeyId },
    expiresAt: iso(code.expiresAt),
    createdAt: iso(code.createdAt),
  };
}
