import { hashPassword, verifyPassword } from '../access/hash-password.ts';
import type { Plan, PlanQuota } from '../domain/plan.ts';
import type { Store } from '../store/store.ts';
import type { KindSummary } from './config-apply-summary.ts';
import { usdToMicros } from '../domain/money.ts';
import { emptyKindSummary, sameValue } from './config-apply-summary.ts';
import { ConfigError } from './config-error.ts';
import type { ConfigFilePlan, ConfigFileSubscription, ConfigFileUser } from './config-file-schema.ts';

const DAY = 86_400_000;

/** Like a key's balance, a wallet is spent: the file's value is applied when it changes, not at every boot. */
const appliedWalletSetting = (userId: string) => `config-file.applied-wallet.${userId}`;

/**
 * Users matched by name. The password is set when the user is created and re-set only when the
 * file's password no longer matches the stored hash (the hash is salted, so comparing hashes
 * would rewrite it at every boot).
 */
export async function applyConfigUsers(store: Store, users: readonly ConfigFileUser[]): Promise<KindSummary> {
  const summary = emptyKindSummary();
  for (const entry of users) {
    const current = await store.users.find(entry.name);
    const balanceMicros = entry.balance === undefined ? undefined : usdToMicros(entry.balance);
    if (current === undefined || current.name !== entry.name) {
      const created = await store.users.create({
        name: entry.name,
        email: entry.email ?? null,
        passwordHash: entry.password == null ? null : await hashPassword(entry.password),
        balanceMicros: balanceMicros ?? 0,
        enabled: entry.enabled ?? true,
      });
      await store.settings.set(appliedWalletSetting(created.id), JSON.stringify(balanceMicros ?? 0));
      summary.created.push(entry.name);
      continue;
    }
    const patch: Parameters<Store['users']['update']>[1] = {};
    if (entry.email !== undefined && current.email !== entry.email) patch.email = entry.email;
    if (entry.enabled !== undefined && current.enabled !== entry.enabled) patch.enabled = entry.enabled;
    if (entry.password === null && current.passwordHash !== null) patch.passwordHash = null;
    if (typeof entry.password === 'string' && (current.passwordHash === null || !(await verifyPassword(entry.password, current.passwordHash)))) {
      patch.passwordHash = await hashPassword(entry.password);
    }
    if (balanceMicros !== undefined) {
      const applied = await store.settings.get(appliedWalletSetting(current.id));
      if (applied !== JSON.stringify(balanceMicros)) {
        patch.balanceMicros = balanceMicros;
        await store.settings.set(appliedWalletSetting(current.id), JSON.stringify(balanceMicros));
      }
    }
    if (Object.keys(patch).length === 0) summary.unchanged.push(entry.name);
    else {
      await store.users.update(current.id, patch);
      summary.updated.push(entry.name);
    }
  }
  return summary;
}

export async function applyConfigPlans(store: Store, plans: readonly ConfigFilePlan[]): Promise<KindSummary> {
  const summary = emptyKindSummary();
  for (const entry of plans) {
    const desired = {
      name: entry.name,
      group: entry.group,
      durationDays: entry.durationDays,
      quota: toQuota(entry.quota ?? {}),
      priceMicros: entry.price === undefined || entry.price === null ? null : usdToMicros(entry.price),
      description: entry.description ?? '',
    };
    const current = await store.plans.find(entry.name);
    if (current === undefined || current.name !== entry.name) {
      await store.plans.create(desired);
      summary.created.push(entry.name);
    } else if (sameValue(pick(current), desired)) {
      summary.unchanged.push(entry.name);
    } else {
      await store.plans.update(current.id, desired);
      summary.updated.push(entry.name);
    }
  }
  return summary;
}

/**
 * A subscription is matched by user and plan: when the user already has one to the plan (of any
 * status), it is kept (its `expiresAt` follows the file when given); otherwise one is granted,
 * from `startsAt` (default: now) for the plan's duration unless `expiresAt` says otherwise.
 */
export async function applyConfigSubscriptions(store: Store, subscriptions: readonly ConfigFileSubscription[], now: number): Promise<KindSummary> {
  const summary = emptyKindSummary();
  const problems: string[] = [];
  for (const [index, entry] of subscriptions.entries()) {
    const user = await store.users.find(entry.user);
    const plan = await store.plans.find(entry.plan);
    if (!user) problems.push(`subscriptions[${index}].user: unknown user "${entry.user}"`);
    if (!plan) problems.push(`subscriptions[${index}].plan: unknown plan "${entry.plan}"`);
  }
  if (problems.length > 0) throw new ConfigError('config file refers to users or plans that exist neither in the file nor in the store:', problems);
  for (const entry of subscriptions) {
    const user = (await store.users.find(entry.user)) as NonNullable<Awaited<ReturnType<Store['users']['find']>>>;
    const plan = (await store.plans.find(entry.plan)) as Plan;
    const label = `${user.name}/${plan.name}`;
    const existing = (await store.subscriptions.list({ userId: user.id })).filter((subscription) => subscription.planId === plan.id);
    const latest = existing.sort((a, b) => b.expiresAt - a.expiresAt)[0];
    if (latest === undefined) {
      const startsAt = entry.startsAt ?? now;
      await store.subscriptions.create({ userId: user.id, planId: plan.id, startsAt, expiresAt: entry.expiresAt ?? startsAt + plan.durationDays * DAY });
      summary.created.push(label);
    } else if (entry.expiresAt !== undefined && latest.expiresAt !== entry.expiresAt) {
      await store.subscriptions.update(latest.id, { expiresAt: entry.expiresAt });
      summary.updated.push(label);
    } else {
      summary.unchanged.push(label);
    }
  }
  return summary;
}

function toQuota(quota: NonNullable<ConfigFilePlan['quota']>): PlanQuota {
  const result: PlanQuota = {};
  for (const window of ['daily', 'weekly', 'monthly', 'total'] as const) {
    const usd = quota[window];
    if (usd !== undefined) result[window] = usdToMicros(usd);
  }
  return result;
}

function pick(plan: Plan) {
  return {
    name: plan.name,
    group: plan.group,
    durationDays: plan.durationDays,
    quota: plan.quota,
    priceMicros: plan.priceMicros,
    description: plan.description,
  };
}
