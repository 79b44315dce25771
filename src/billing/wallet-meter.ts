import { GatewayError } from '../core/gateway-error.ts';
import type { User } from '../domain/user.ts';
import type { Kv, KvAdjustResult } from '../kv/kv.ts';
import type { ChargeWriter } from './charge-writer.ts';
import { formatUsd } from './format-usd.ts';

export interface WalletMeterDeps {
  kv: Kv;
  /** Settled wallet charges, written to `users` in batches (ids are user ids). */
  charges: ChargeWriter;
  /** The user as the snapshot has it now, or undefined when gone. */
  currentUser: (userId: string) => User | undefined;
  /** The wallet as the database has it now (settled charges included). */
  readBalance: (userId: string) => Promise<number | undefined>;
}

export interface WalletHold {
  settle(costMicros: number): Promise<void>;
}

/**
 * A user's wallet, shared by all of the user's keys, with the key balance's discipline (see
 * BalanceMeter): the kv account `wallet:<user>:<version>` is the authority on the hot path,
 * each request reserves atomically and settles to its exact cost, settled charges reach the
 * database in batches. Every change to the user (a top-up, a redemption) bumps its version, so
 * the next request seeds a fresh account from the database minus the charges not yet written;
 * with a shared kv the first instance to seed wins and every instance spends from one account.
 */
export class WalletMeter {
  constructor(private readonly deps: WalletMeterDeps) {}

  async hold(user: User, amountMicros: number, model: string): Promise<WalletHold> {
    const account = accountName(user);
    const result = await this.#adjustSeeded(account, -amountMicros, amountMicros === 0 ? 1 : 0, user);
    if (!result.applied) {
      throw new GatewayError(
        'insufficient_balance',
        result.value <= 0
          ? `The wallet of account "${user.name}" is empty (${formatUsd(result.value)}). Top it up: redeem a code with POST /api/me/redeem, or ask the operator.`
          : `The wallet of account "${user.name}" (${formatUsd(result.value)}) does not cover this request to "${model}" (up to ${formatUsd(amountMicros)} with its output limit). Top it up, or lower the request's maximum output tokens.`,
      );
    }
    let settled = false;
    return {
      settle: async (costMicros) => {
        if (settled) return;
        settled = true;
        this.deps.charges.record(user.id, costMicros);
        const current = this.deps.currentUser(user.id);
        const currentAccount = current ? accountName(current) : undefined;
        if (currentAccount === account) {
          if (amountMicros !== costMicros) await this.deps.kv.adjust(account, amountMicros - costMicros, { requireExisting: true });
          return;
        }
        // The user changed meanwhile (a top-up): the new account pays the cost.
        if (currentAccount !== undefined && costMicros !== 0) await this.deps.kv.adjust(currentAccount, -costMicros, { requireExisting: true });
      },
    };
  }

  /** What the wallet holds right now, for `/api/me` and the admin API. */
  async available(user: User): Promise<number> {
    return (await this.deps.kv.get(accountName(user))) ?? user.balanceMicros - this.deps.charges.pending(user.id);
  }

  async #adjustSeeded(name: string, delta: number, min: number, user: User): Promise<KvAdjustResult> {
    for (let attempt = 0; ; attempt += 1) {
      const result = await this.deps.kv.adjust(name, delta, { min, requireExisting: true });
      if (!result.missing || attempt === 2) return result;
      // Pending first: a flush landing in between is subtracted twice (briefly less), never not at all.
      const pending = this.deps.charges.pending(user.id);
      let balance: number | undefined;
      try {
        balance = await this.deps.readBalance(user.id);
      } catch {
        balance = undefined;
      }
      await this.deps.kv.setIfAbsent(name, (balance ?? user.balanceMicros) - pending);
    }
  }
}

function accountName(user: User): string {
  return `wallet:${user.id}:${user.updatedAt}`;
}
