import { GatewayError } from '../core/gateway-error.ts';
import type { User } from '../domain/user.ts';
import { randomUUID } from 'node:crypto';
import type { Kv, KvFunding } from '../kv/kv.ts';
import type { ChargeWriter } from './charge-writer.ts';
import { formatUsd } from './format-usd.ts';
import { fundingOf, holdSeeded, type AccountSeed } from './hold-seeded.ts';
import { type SettlementPlan, settleOnce } from './settlement-plan.ts';

export interface WalletMeterDeps {
  kv: Kv;
  /** Settled wallet charges, written to `users` in batches (ids are user ids). */
  charges: ChargeWriter;
  /** The user as the database has it now (settled charges included). */
  readUser: (userId: string) => Promise<Pick<User, 'balanceMicros' | 'spentMicros' | 'updatedAt'> | undefined>;
}

export interface WalletHold {
  /** What `settle` does, as data (settlement-plan.ts). */
  readonly plan: SettlementPlan;
  settle(costMicros: number): Promise<void>;
}

/**
 * A user's wallet, shared by all of the user's keys, with the key balance's discipline (see
 * BalanceMeter): one kv account `wallet:<user>` is the authority on the hot path, each request
 * reserves atomically under a hold id and settles that hold to its exact cost, settled charges
 * reach the database in batches. A top-up or a redemption is a delta applied to that account
 * (the funding each hold carries), so the holds of requests still running are never forgotten;
 * with a shared kv every instance spends from the one account.
 */
export class WalletMeter {
  constructor(private readonly deps: WalletMeterDeps) {}

  async hold(user: User, amountMicros: number, model: string): Promise<WalletHold> {
    const account = accountName(user.id);
    const holdId = randomUUID();
    const funding = fundingOf(user);
    const result = await holdSeeded(this.deps.kv, account, holdId, -amountMicros, { min: amountMicros === 0 ? 1 : 0, ...(funding ? { funding } : {}) }, () =>
      this.#seed(user),
    );
    if (!result.applied) {
      throw new GatewayError(
        'insufficient_balance',
        result.value <= 0
          ? `The wallet of account "${user.name}" is empty (${formatUsd(result.value)}). Top it up: redeem a code with POST /api/me/redeem, or ask the operator.`
          : `The wallet of account "${user.name}" (${formatUsd(result.value)}) does not cover this request to "${model}" (up to ${formatUsd(amountMicros)} with its output limit). Top it up, or lower the request's maximum output tokens.`,
      );
    }
    const plan: SettlementPlan = { holds: [[account, holdId, -1]], charges: [['wallet', user.id]] };
    return { plan, settle: settleOnce(plan, this.deps.kv, this.deps.charges) };
  }

  /** What the wallet holds right now, for `/api/me` and the admin API. */
  async available(user: User): Promise<number> {
    return (await this.deps.kv.fund(accountName(user.id), fundingOf(user) as KvFunding)) ?? user.balanceMicros - this.deps.charges.pending(user.id);
  }

  async #seed(user: User): Promise<AccountSeed> {
    // Pending first: a flush landing in between is subtracted twice (briefly less), never not at all.
    const pending = this.deps.charges.pending(user.id);
    let stored: Pick<User, 'balanceMicros' | 'spentMicros' | 'updatedAt'> | undefined;
    try {
      stored = await this.deps.readUser(user.id);
    } catch {
      stored = undefined;
    }
    const record = stored ?? user;
    const funding = fundingOf(record);
    return { value: record.balanceMicros - pending, ...(funding ? { funding } : {}) };
  }
}

function accountName(userId: string): string {
  return `wallet:${userId}`;
}
