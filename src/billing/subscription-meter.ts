import type { Plan, QuotaWindow } from '../domain/plan.ts';
import type { Subscription } from '../domain/subscription.ts';
import { randomUUID } from 'node:crypto';
import type { Kv } from '../kv/kv.ts';
import { subscriptionUsageId } from '../store/repositories/subscription-repository.ts';
import type { SubscriptionUsageRow } from '../store/store.ts';
import type { ChargeWriter } from './charge-writer.ts';
import { holdSeeded, type AccountSeed } from './hold-seeded.ts';
import { type SettlementPlan, settleOnce } from './settlement-plan.ts';
import { subscriptionWindows, type QuotaWindowSpan } from './subscription-windows.ts';

export interface SubscriptionMeterDeps {
  kv: Kv;
  /** Settled usage, written to `subscription_usage` in batches (ids from subscriptionUsageId). */
  usage: ChargeWriter;
  readUsage: (subscriptionId: string, windows: string[]) => Promise<SubscriptionUsageRow[]>;
  now: () => number;
}

/** Why a subscription could not take a request: the first capped window it would overrun. */
export interface QuotaShortfall {
  window: QuotaWindow;
  quotaMicros: number;
  usedMicros: number;
  /** Null for `total`. */
  resetsAt: number | null;
}

export interface QuotaHold {
  /** What `settle` does, as data (settlement-plan.ts). */
  readonly plan: SettlementPlan;
  settle(costMicros: number): Promise<void>;
}

export interface WindowUsage {
  window: QuotaWindow;
  usedMicros: number;
  quotaMicros: number | null;
  resetsAt: number | null;
}

const WINDOW_SLACK_MS = 86_400_000;

/**
 * A subscription's quotas, with the spend caps' discipline: each capped window is a kv counter
 * (`subq:<subscription>:<window>`), a request reserves its estimate in every capped window
 * atomically (bounded by the quota) and settles to its exact cost, so concurrent requests can
 * overrun a quota by at most nothing: a reservation that would cross it is refused. Counters
 * are seeded from the `subscription_usage` table plus the charges not yet written when the kv
 * does not have them (a new window, a Redis restart); settled usage is written in batches for
 * all four windows, capped or not, so usage can be shown for every window.
 */
export class SubscriptionMeter {
  constructor(private readonly deps: SubscriptionMeterDeps) {}

  async hold(subscription: Subscription, plan: Plan, amountMicros: number): Promise<{ hold: QuotaHold } | { shortfall: QuotaShortfall }> {
    const now = this.deps.now();
    const spans = subscriptionWindows(now);
    const held: string[] = [];
    const holdId = randomUUID();
    const release = () => Promise.all(held.map((name) => this.deps.kv.settle(name, holdId, 0)));
    for (const span of spans) {
      const quota = plan.quota[span.window];
      if (quota === undefined) continue;
      const name = counterName(subscription.id, span);
      const result = await holdSeeded(this.deps.kv, name, holdId, amountMicros, { max: amountMicros === 0 ? quota - 1 : quota }, () =>
        this.#seed(subscription, span, now),
      );
      if (!result.applied) {
        await release();
        return { shortfall: { window: span.window, quotaMicros: quota, usedMicros: result.value, resetsAt: span.end } };
      }
      held.push(name);
    }
    const settlement: SettlementPlan = {
      holds: held.map((name): [string, string, 1] => [name, holdId, 1]),
      charges: spans.map((span) => ['subscription', subscriptionUsageId(subscription.id, span.id)]),
    };
    return { hold: { plan: settlement, settle: settleOnce(settlement, this.deps.kv, this.deps.usage) } };
  }

  /** Used so far in each window at `now`, with the plan's quota and the reset time. */
  async usage(subscription: Subscription, plan: Plan): Promise<WindowUsage[]> {
    const spans = subscriptionWindows(this.deps.now());
    const stored = new Map(
      (
        await this.deps.readUsage(
          subscription.id,
          spans.map((span) => span.id),
        )
      ).map((row) => [row.window, row.usedMicros]),
    );
    return Promise.all(
      spans.map(async (span) => {
        const quota = plan.quota[span.window];
        const live = quota === undefined ? undefined : await this.deps.kv.get(counterName(subscription.id, span));
        const usedMicros = live ?? (stored.get(span.id) ?? 0) + this.deps.usage.pending(subscriptionUsageId(subscription.id, span.id));
        return { window: span.window, usedMicros, quotaMicros: quota ?? null, resetsAt: span.end };
      }),
    );
  }

  async #seed(subscription: Subscription, span: QuotaWindowSpan, now: number): Promise<AccountSeed> {
    // Pending first: a flush landing in between is counted twice (briefly more used), never not at all.
    const pending = this.deps.usage.pending(subscriptionUsageId(subscription.id, span.id));
    const rows = await this.deps.readUsage(subscription.id, [span.id]);
    const end = span.end ?? subscription.expiresAt;
    return { value: (rows[0]?.usedMicros ?? 0) + pending, ttlMs: Math.max(end - now, 0) + WINDOW_SLACK_MS };
  }
}

function counterName(subscriptionId: string, span: QuotaWindowSpan): string {
  return `subq:${subscriptionId}:${span.id}`;
}
