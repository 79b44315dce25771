import { createHash } from 'node:crypto';
import type { Kv } from '../kv/kv.ts';

export interface SignInThrottleOptions {
  /** Failed attempts one account may see per window before further attempts are refused. */
  perAccount: number;
  /** Failed attempts one client address may make per window (across accounts). */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleOptions = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 };

/**
 * Counts failed sign-ins per account and per client address in fixed windows held in the shared
 * kv (Redis across instances), so guessing a password costs the same on every instance. Only
 * failures count: a person who types the right password is never locked out by their own
 * success, and an attacker cannot reset the count by succeeding elsewhere. The account is keyed
 * by a hash of the normalised login, so unknown names are throttled exactly like real ones and
 * the kv holds no email addresses.
 */
export class SignInThrottle {
  constructor(
    private readonly kv: Kv,
    private readonly now: () => number,
    private readonly options: SignInThrottleOptions = DEFAULT_SIGN_IN_THROTTLE,
  ) {}

  /** Seconds to wait when either count is exhausted, else 0. */
  async retryAfter(login: string, address: string): Promise<number> {
    const { accountKey, addressKey, windowEnd } = this.keys(login, address);
    const [account, byAddress] = await Promise.all([this.kv.get(accountKey), this.kv.get(addressKey)]);
    if ((account ?? 0) >= this.options.perAccount || (byAddress ?? 0) >= this.options.perAddress) {
      return Math.max(1, Math.ceil((windowEnd - this.now()) / 1000));
    }
    return 0;
  }

  async recordFailure(login: string, address: string): Promise<void> {
    const { accountKey, addressKey, windowEnd } = this.keys(login, address);
    const ttlMs = Math.max(windowEnd - this.now(), 1000);
    await Promise.all([this.kv.adjust(accountKey, 1, { ttlMs }), this.kv.adjust(addressKey, 1, { ttlMs })]);
  }

  private keys(login: string, address: string) {
    const window = Math.floor(this.now() / this.options.windowMs);
    const account = createHash('sha256').update(normaliseLogin(login)).digest('hex').slice(0, 32);
    return {
      accountKey: `signin:account:${account}:${window}`,
      addressKey: `signin:address:${address}:${window}`,
      windowEnd: (window + 1) * this.options.windowMs,
    };
  }
}

/** Emails and names are matched without regard to case or surrounding spaces. */
export function normaliseLogin(login: string): string {
  return login.trim().toLowerCase();
}
