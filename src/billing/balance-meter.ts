import { GatewayError } from '../core/gateway-error.ts';
import type { Kv, KvAdjustResult } from '../kv/kv.ts';
import type { ApiKey } from '../domain/api-key.ts';
import type { ChargeWriter } from './charge-writer.ts';
import { formatUsd } from './format-usd.ts';
import { spendWindows, type SpendWindow } from './spend-windows.ts';

/** Spend already in the database for a key over `[start, end)`, loaded once at start-up. */
export type SpendBaseline = (keyId: string, start: number, end: number) => number;

export interface BalanceMeterDeps {
  kv: Kv;
  charges: ChargeWriter;
  /** The key as the snapshot has it now (by hash), or undefined when it is gone. */
  currentKey: (keyHash: string) => ApiKey | undefined;
  spendBaseline: SpendBaseline;
  /**
   * The key's balance as the database has it now (settled charges included), read when an
   * account has to be seeded; undefined (or a failure) falls back to the snapshot's value.
   */
  readBalance?: (keyId: string) => Promise<number | null | undefined>;
  now: () => number;
}

/** Money held for one request until its exact cost is known. */
export interface SpendHold {
  readonly reservedMicros: number;
  /** Replaces the hold with the exact cost (0 refunds it all). Call exactly once. */
  settle(costMicros: number): Promise<void>;
}

const WINDOW_SLACK_MS = 86_400_000;

/**
 * Balances and spend caps, held in the kv so that concurrent requests can never spend more
 * than a key has: each request reserves its estimate atomically, then settles to its exact
 * cost. The kv is the authority on the hot path; settled charges reach the database in
 * batches through the charge writer.
 *
 * A balance lives under the key's `updatedAt`: when the operator edits the key (say, a top-up),
 * the next request starts a fresh account from the database's balance minus the charges not
 * yet written, and holds made before the edit settle against the new account. Accounts and
 * windows are seeded when the kv says they are missing (never assumed to be there), so a kv
 * that lost its data (a Redis restart, the local fallback during an outage) is re-seeded
 * instead of read as zero. With a shared kv the first instance to seed wins (setIfAbsent) and
 * every instance spends from the same account.
 */
export class BalanceMeter {
  constructor(private readonly deps: BalanceMeterDeps) {}

  /**
   * `chargeKeyBalance: false` holds only the key's spend caps: something else (a subscription,
   * the user's wallet) pays, so the key's own balance is neither checked nor charged.
   */
  async hold(key: ApiKey, amountMicros: number, model: string, options: { chargeKeyBalance?: boolean } = {}): Promise<SpendHold> {
    const chargeKeyBalance = options.chargeKeyBalance ?? true;
    const windows = spendWindows(key.limits, this.deps.now());
    const heldWindows: string[] = [];
    const releaseWindows = () =>
      Promise.all(heldWindows.map((name) => this.deps.kv.adjust(name, -amountMicros, { requireExisting: true })));
    for (const window of windows) {
      const name = windowName(key.id, window);
      // A zero-cost request is still refused once the cap is reached.
      const result = await this.#adjustSeeded(name, amountMicros, { max: amountMicros === 0 ? window.limitMicros - 1 : window.limitMicros }, async () => ({
        value: this.deps.spendBaseline(key.id, window.start, window.end),
        ttlMs: window.end - this.deps.now() + WINDOW_SLACK_MS,
      }));
      if (!result.applied) {
        await releaseWindows();
        throw spendLimitError(window, result.value, amountMicros);
      }
      heldWindows.push(name);
    }

    let account: string | undefined;
    if (key.balanceMicros !== null && chargeKeyBalance) {
      account = accountName(key);
      const result = await this.#adjustSeeded(account, -amountMicros, { min: amountMicros === 0 ? 1 : 0 }, () => this.#accountSeed(key));
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

    let settled = false;
    return {
      reservedMicros: amountMicros,
      settle: async (costMicros) => {
        if (settled) return;
        settled = true;
        const difference = costMicros - amountMicros;
        // Recorded first: an account seeded from here on subtracts it as a pending charge. A key
        // whose balance did not pay must not see the charge taken off that balance.
        if (chargeKeyBalance || key.balanceMicros === null) this.deps.charges.record(key.id, costMicros);
        if (difference !== 0) {
          await Promise.all(heldWindows.map((name) => this.deps.kv.adjust(name, difference, { requireExisting: true })));
        }
        if (chargeKeyBalance) await this.#settleBalance(key, account, amountMicros, costMicros);
      },
    };
  }

  /** What the key has left right now, for `/api/me`; null = unlimited. */
  async available(key: ApiKey): Promise<number | null> {
    if (key.balanceMicros === null) return null;
    return (await this.deps.kv.get(accountName(key))) ?? key.balanceMicros - this.deps.charges.pending(key.id);
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

  async #settleBalance(key: ApiKey, account: string | undefined, reserved: number, cost: number): Promise<void> {
    const current = this.deps.currentKey(key.keyHash);
    const currentAccount = current && current.balanceMicros !== null ? accountName(current) : undefined;
    // An account that is missing now will be seeded from the database minus pending charges,
    // which already include this one: adjusting it here would count the charge twice.
    if (account !== undefined && account === currentAccount) {
      if (reserved !== cost) await this.deps.kv.adjust(account, reserved - cost, { requireExisting: true });
      return;
    }
    // The key was edited meanwhile: the old account is abandoned, and the new one (seeded from
    // the store, which may not know this charge yet) pays the cost.
    if (currentAccount !== undefined && cost !== 0) await this.deps.kv.adjust(currentAccount, -cost, { requireExisting: true });
  }

  /** Adjusts a key that must exist, seeding it first when the kv says it is missing. */
  async #adjustSeeded(
    name: string,
    delta: number,
    bounds: { min?: number; max?: number },
    seed: () => Promise<{ value: number; ttlMs?: number }>,
  ): Promise<KvAdjustResult> {
    for (let attempt = 0; ; attempt += 1) {
      const result = await this.deps.kv.adjust(name, delta, { ...bounds, requireExisting: true });
      if (!result.missing || attempt === 2) return result;
      const { value, ttlMs } = await seed();
      await this.deps.kv.setIfAbsent(name, value, ttlMs);
    }
  }

  async #accountSeed(key: ApiKey): Promise<{ value: number }> {
    // Pending charges are read before the balance, so a flush landing in between is subtracted
    // twice (the key briefly has less) rather than not at all (it could overspend).
    const pending = this.deps.charges.pending(key.id);
    let balance: number | null | undefined;
    try {
      balance = await this.deps.readBalance?.(key.id);
    } catch {
      balance = undefined;
    }
    return { value: (balance ?? key.balanceMicros ?? 0) - pending };
  }
}

function accountName(key: ApiKey): string {
  return `balance:${key.id}:${key.updatedAt}`;
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
