import type { Caller } from '../access/authenticate-key.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { UsageAggregateQuery, UsageAggregateRow } from '../store/usage-queries.ts';
import { findSubscriptions } from './account-billing.ts';
import type { BalanceMeter } from './balance-meter.ts';
import { spendWindows, type SpendPeriod } from './spend-windows.ts';
import type { SubscriptionMeter, WindowUsage } from './subscription-meter.ts';
import type { WalletMeter } from './wallet-meter.ts';

export interface KeyFundsDeps {
  snapshot: Snapshot;
  balances: Pick<BalanceMeter, 'available'>;
  wallets: Pick<WalletMeter, 'available'>;
  subscriptions: Pick<SubscriptionMeter, 'usage'>;
  /**
   * The key's all-time spend: stored plus charged but not yet written, each charge once
   * (ChargeWriter.withPending); undefined when the key is gone. The snapshot's copy lags.
   */
  readSpent: (keyId: string) => Promise<number | undefined>;
  /** The usage log's per-day totals (written rows only: flush first). */
  aggregateUsage: (query: UsageAggregateQuery) => Promise<UsageAggregateRow[]>;
  now: number;
}

/**
 * What one key's holder may know about its money, in micro-USD, for the balance endpoints that
 * key holders' tools read (OpenRouter, OpenAI-legacy, sub2api shapes). Only the calling key's own
 * balance, its own account's wallet or its own account's subscription: never another key's.
 */
export interface KeyFunds {
  label: string;
  /** What pays this key's next request. */
  paysFrom: 'key_balance' | 'wallet' | 'subscription' | 'unlimited';
  /** The plan's name when a subscription pays; else the group's name. */
  planName: string;
  /** What is left to spend; null = no limit. For a subscription: the tightest window's remainder. */
  remainingMicros: number | null;
  /** All that this key has spent (charged cost), ever. */
  usageMicros: number;
  /** This key's charged cost in the current UTC day, week (from Monday) and calendar month. */
  periodUsageMicros: Record<SpendPeriod, number>;
  /** The subscription's windows, when one pays. */
  subscription: { planName: string; expiresAt: number; windows: WindowUsage[] } | undefined;
  /** Epoch ms; null = the key does not expire. */
  expiresAt: number | null;
}

export async function describeKeyFunds(deps: KeyFundsDeps, caller: Caller): Promise<KeyFunds> {
  const { key, group } = caller;
  const periods = spendWindows({ dailySpendMicros: 0, weeklySpendMicros: 0, monthlySpendMicros: 0 }, deps.now);
  const from = Math.min(...periods.map((window) => window.start));
  // The usage log's daily totals of this key alone, over the widest open window.
  const days = await deps.aggregateUsage({ from, to: deps.now + 1, by: 'key', keyId: key.id });
  const periodUsageMicros = { daily: 0, weekly: 0, monthly: 0 };
  for (const window of periods) {
    for (const row of days) {
      const dayStart = Date.parse(`${row.day}T00:00:00Z`);
      if (row.subject === key.id && dayStart >= window.start && dayStart < window.end) periodUsageMicros[window.period] += row.costMicros;
    }
  }
  const base = {
    label: key.name,
    usageMicros: (await deps.readSpent(key.id)) ?? key.spentMicros,
    periodUsageMicros,
    expiresAt: key.expiresAt,
  };

  if (group.billing !== 'balance') {
    const choice = findSubscriptions(deps.snapshot, key, group, deps.now).usable[0];
    if (choice !== undefined) {
      const windows = await deps.subscriptions.usage(choice.subscription, choice.plan);
      const limited = windows.filter((window) => window.quotaMicros !== null);
      const remainingMicros = limited.length === 0 ? null : Math.max(0, Math.min(...limited.map((window) => (window.quotaMicros ?? 0) - window.usedMicros)));
      return {
        ...base,
        paysFrom: 'subscription',
        planName: choice.plan.name,
        remainingMicros,
        subscription: { planName: choice.plan.name, expiresAt: choice.subscription.expiresAt, windows },
      };
    }
    // A subscription-only group with no usable subscription has nothing left to spend.
    if (group.billing === 'subscription') return { ...base, paysFrom: 'subscription', planName: group.name, remainingMicros: 0, subscription: undefined };
  }
  const available = await deps.balances.available(key);
  if (available !== null) return { ...base, paysFrom: 'key_balance', planName: group.name, remainingMicros: available, subscription: undefined };
  const user = key.userId ? deps.snapshot.users.get(key.userId) : undefined;
  if (user !== undefined) {
    return { ...base, paysFrom: 'wallet', planName: group.name, remainingMicros: await deps.wallets.available(user), subscription: undefined };
  }
  return { ...base, paysFrom: 'unlimited', planName: group.name, remainingMicros: null, subscription: undefined };
}
