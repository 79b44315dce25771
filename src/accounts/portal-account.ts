import { describeRedemption, redeemCode } from '../billing/redeem-code.ts';
import type { PortalGroup, PortalRedeemAnswer, PortalUser } from '../domain/account-portal-api.ts';
import { microsToUsd } from '../domain/money.ts';
import type { Plan } from '../domain/plan.ts';
import { subscriptionStatus, type Subscription } from '../domain/subscription.ts';
import type { User } from '../domain/user.ts';
import { listGroupModels } from '../snapshot/snapshot.ts';
import { accountDefaultGroup } from './account-settings.ts';
import { subscriptionView, userView, type SubscriptionView } from './account-views.ts';
import type { PortalDeps } from './portal-deps.ts';

/** One of the account's subscriptions, its plan (gone if deleted) and how the portal shows it. */
export interface AccountSubscription {
  subscription: Subscription;
  plan: Plan | undefined;
  view: SubscriptionView;
}

/** The account as its holder sees it: never the password hash; the live wallet as `balance`. */
export async function portalUser(deps: PortalDeps, user: User): Promise<PortalUser> {
  const view = userView(user, await deps.access.wallets.available(user));
  return { id: view.id, name: view.name, email: view.email, balance: view.balance, spent: view.spent, enabled: view.enabled };
}

export async function accountSubscriptions(deps: PortalDeps, user: User): Promise<AccountSubscription[]> {
  const list = await deps.store.subscriptions.list({ userId: user.id });
  const time = deps.runtime.now();
  return Promise.all(
    list.map(async (subscription) => {
      const plan = await deps.store.plans.find(subscription.planId);
      const usage = plan ? await deps.access.subscriptions.usage(subscription, plan) : [];
      return { subscription, plan, view: subscriptionView(subscription, plan, user, usage, time) };
    }),
  );
}

/** The groups of the account's active subscriptions, and the operator's default group for accounts. */
export async function accountKeyGroups(
  deps: PortalDeps,
  subscriptions: ReadonlyArray<Pick<AccountSubscription, 'subscription' | 'plan'>>,
): Promise<PortalGroup[]> {
  const snapshot = deps.snapshot.current;
  const time = deps.runtime.now();
  const result = new Map<string, PortalGroup>();
  const add = (name: string, via: PortalGroup['via']) => {
    const group = snapshot.groups.get(name);
    if (!group || result.has(group.name)) return;
    result.set(group.name, { name: group.name, description: group.description, billing: group.billing, models: listGroupModels(snapshot, group.name), via });
  };
  for (const { subscription, plan } of subscriptions) {
    if (plan && subscriptionStatus(subscription, time) === 'active' && subscription.startsAt <= time) add(plan.group, 'subscription');
  }
  const fallback = await accountDefaultGroup(deps.store);
  if (fallback !== null) add(fallback, 'default');
  return [...result.values()];
}

/** Redeems a code into the account (wallet credit or a subscription) and says what it gave. */
export async function redeemForAccount(deps: PortalDeps, user: User, code: string): Promise<PortalRedeemAnswer> {
  const result = await redeemCode(deps.store, { id: null, userId: user.id, balanceMicros: null }, code, deps.runtime.now());
  await deps.snapshot.reload();
  const fresh = (await deps.store.users.find(user.id)) ?? user;
  return {
    kind: result.kind,
    ...(result.amountMicros === undefined ? {} : { amount: microsToUsd(result.amountMicros) }),
    ...(result.subscriptionId === undefined
      ? {}
      : {
          subscription: {
            id: result.subscriptionId,
            planName: result.plan?.name ?? null,
            group: result.plan?.group ?? null,
            startsAt: new Date(result.startsAt ?? 0).toISOString(),
            expiresAt: new Date(result.expiresAt ?? 0).toISOString(),
          },
        }),
    balance: microsToUsd(await deps.access.wallets.available(fresh)),
    message: describeRedemption(result),
  };
}
