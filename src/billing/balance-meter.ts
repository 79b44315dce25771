import { GatewayError } from '../core/gateway-error.ts';
import { randomUUID } from 'node:crypto';
import type { Kv } from '../kv/kv.ts';
import type { ApiKey } from '../domain/api-key.ts';
import type { ChargeWriter } from './charge-writer.ts';
import { formatUsd } from './format-usd.ts';
import { spendWindows, type SpendWindow } from './spend-windows.ts';
import { fundingOf, holdSeeded, type AccountSeed } from './hold-seeded.ts';
import { type SettlementPlan, settleOnce } from './settlement-plan.ts';

/** Spend already in the database for a key over `[start, end)`, loaded once at start-up. */
export type SpendBaseline = (keyId: string, start: number, end: number) => number;

export interface BalanceMeterDeps {
  kv: Kv;
  charges: ChargeWriter;
  spendBaseline: SpendBaseline;
  /**
   * The key as the database has it now (settled charges included), read when its account has to
   * be seeded; undefined (or a failure) falls back to the snapshot's record.
   */
  readKey?: (keyId: string) => Promise<Pick<ApiKey, 'balanceMicros' | 'spentMicros' | 'updatedAt'> | undefined>;
  now: () => number;
}

/** Money held for one request until its exact cost is known. */
export interface SpendHold {
  readonly reservedMicros: number;
  /** What `settle` does, as data (settlement-plan.ts). */
  readonly plan: SettlementPlan;
  /** Replaces the hold with the exact cost (0 refunds it all). Call exactly once. */
  settle(costMicros: number): Promise<void>;
}

const WINDOW_SLACK_MS = 86_400_000;

/**
 * Balances and spend caps, held in the kv so that concurrent requests can never spend more
 * than a key has: each request reserves its estimate atomically under a hold id of its own, then
 * settles that hold to its exact cost. The kv is the authority on the hot path; settled charges
 * reach the database in batches through the charge writer.
 *
 * A key has one account (`balance:<key>`) for its whole life. A top-up, a redemption or an
 * operator's correction is a delta applied to it (the funding the hold carries, see KvFunding):
 * holds of requests still running stay on it, and a rename moves no money. Accounts and windows
 * are seeded when the kv says they are missing (never assumed to be there), so a kv that lost its
 * data (a Redis restart, the local fallback during an outage) is re-seeded from the database
 * minus the charges not yet written instead of read as zero. With a shared kv the first instance
 * to seed wins and every instance spends from the same account.
 */
export class BalanceMeter {
  constructor(private readonly deps: BalanceMeterDeps) {}

  /**
   * `chargeKeyBalance: false` holds only the key's spend caps: something else (a subscription,
   * the user's wallet) pays, so the key's own balance is neither checked nor charged.
   */
  async hold(key: ApiKey, amountMicros: number, model: string, options: { chargeKeyBalance?: boolean } = {}): Promise<SpendHold> {
    const chargeKeyBalance = options.chargeKeyBalance ?? true;
    const { kv } = this.deps;
    const holdId = randomUUID();
    const windows = spendWindows(key.limits, this.deps.now());
    const heldWindows: string[] = [];
    const releaseWindows = () => Promise.all(heldWindows.map((name) => kv.settle(name, holdId, 0)));
    for (const window of windows) {
      const name = windowName(key.id, window);
      // A zero-cost request is still refused once the cap is reached.
      const result = await holdSeeded(kv, name, holdId, amountMicros, { max: amountMicros === 0 ? window.limitMicros - 1 : window.limitMicros }, async () => ({
        value: this.deps.spendBaseline(key.id, window.start, window.end),
        ttlMs: window.end - this.deps.now() + WINDOW_SLACK_MS,
      }));
      if (!result.applied) {
        await releaseWindows();
        throw spendLimitError(window, result.value, amountMicros);
      }
      heldWindows.push(name);
    }

    const funding = fundingOf(key);
    const account = key.balanceMicros !== null && chargeKeyBalance ? accountName(key.id) : undefined;
    if (account !== undefined) {
      const result = await holdSeeded(kv, account, holdId, -amountMicros, { min: amountMicros === 0 ? 1 : 0, ...(funding ? { funding } : {}) }, () =>
        this.#accountSeed(key),
      );
      if (!result.applied) {
        await releaseWindows();
        throw new GatewayError(
          'insufficient_balance',
          result.value <= 0
            ? `This API key has no balance left (${formatUsd(result.value)}). Ask the operator to top up the key's balance.`
            : `This API key's balance (${formatUsd(result.value)}) does not cover this request to "${model}" (up to ${formatUsd(amountMicros)} with its output limit). Ask the operator to top up the key, or lower the request's maximum output tokens.`,
        );
      }
    }

    const charged = chargeKeyBalance || key.balanceMicros === null;
    // A key whose balance did not pay must not see the charge taken off that balance: no charge then.
    const plan: SettlementPlan = {
      holds: [
        ...heldWindows.map((name): [string, string, 1] => [name, holdId, 1]),
        ...(account === undefined ? [] : [[account, holdId, -1] as [string, string, -1]]),
      ],
      charges: charged ? [['key', key.id]] : [],
    };
    return { reservedMicros: amountMicros, plan, settle: settleOnce(plan, kv, this.deps.charges) };
  }

  /** What the key has left right now, for `/api/me`; null = unlimited. */
  async available(key: ApiKey): Promise<number | null> {
    const funding = fundingOf(key);
    if (funding === undefined || key.balanceMicros === null) return null;
    return (await this.deps.kv.fund(accountName(key.id), funding)) ?? key.balanceMicros - this.deps.charges.pending(key.id);
  }

  /**
   * Forgets the key's account, for a key that had no balance and is given one: the account left
   * from before it was unlimited would add the spending of the unlimited time as funding. Safe:
   * nothing was held on it meanwhile.
   */
  async resetAccount(keyId: string): Promise<void> {
    await this.deps.kv.delete(accountName(keyId));
  }

  /** Spent so far in each of the key's capped windows, for `/api/me`. */
  async windowSpend(key: ApiKey): Promise<Array<SpendWindow & { spentMicros: number }>> {
    const windows = spendWindows(key.limits, this.deps.now());
    return Promise.all(
      windows.map(async (window) => ({
        ...window,
        spentMicros: (await this.deps.kv.get(windowName(key.id, window))) ?? this.deps.spendBaseline(key.id, window.start, window.end),
      })),
    );
  }

  async #accountSeed(key: ApiKey): Promise<AccountSeed> {
    // Pending charges are read before the balance, so a flush landing in between is subtracted
    // twice (the key briefly has less) rather than not at all (it could overspend).
    const pending = this.deps.charges.pending(key.id);
    let stored: Pick<ApiKey, 'balanceMicros' | 'spentMicros' | 'updatedAt'> | undefined;
    try {
      stored = await this.deps.readKey?.(key.id);
    } catch {
      stored = undefined;
    }
    const record = stored?.balanceMicros !== null && stored !== undefined ? stored : key;
    const funding = fundingOf(record);
    return { value: (record.balanceMicros ?? 0) - pending, ...(funding ? { funding } : {}) };
  }
}

function accountName(keyId: string): string {
  return `balance:${keyId}`;
}

function windowName(keyId: string, window: SpendWindow): string {
  return `spend:${keyId}:${window.period}:${window.id}`;
}

function spendLimitError(window: SpendWindow, spent: number, amount: number): GatewayError {
  const label = { daily: 'daily', weekly: 'weekly', monthly: 'monthly' }[window.period];
  const already = spent >= window.limitMicros;
  return new GatewayError(
    'spend_limit_reached',
    `This API key's ${label} spending limit of ${formatUsd(window.limitMicros)} is ${already ? 'reached' : 'nearly reached'} (${formatUsd(spent)} spent${already ? '' : `; this request may cost up to ${formatUsd(amount)}`}). It resets at ${new Date(window.end).toISOString()}; wait until then, or ask the operator to raise the key's ${label} limit.`,
  );
}
