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

/** A sign-in the throttle let through to the password check, or the wait it imposes instead. */
export type SignInAdmission = { admitted: true; attempt: SignInAttempt } | { admitted: false; retryAfterSeconds: number };

/**
 * Counts sign-in attempts per account and per client address in fixed windows held in the
 * shared kv (Redis across instances), so guessing a password costs the same on every instance.
 *
 * An attempt takes its place in both budgets BEFORE the password is checked, each with one
 * bounded atomic increment: a burst sent in parallel cannot all pass a count that was read
 * before the ~150 ms hash and written after it (40 guesses and the right password sent together
 * were all checked, and the right one signed in). A correct password gives its places back, so
 * only failures stay counted: a person who types the right password is never locked out by their
 * own success, and an attacker cannot reset the count by succeeding elsewhere.
 *
 * The account budget is keyed by the account itself (its id), so its name and its e-mail are
 * one budget; a login that names no account is keyed by a hash of the normalised login, so
 * unknown names are throttled exactly like real ones and the kv holds no e-mail addresses.
 */
export class SignInThrottle {
  constructor(
    private readonly kv: Kv,
    private readonly now: () => number,
    private readonly options: SignInThrottleOptions = DEFAULT_SIGN_IN_THROTTLE,
    /** The kv key prefix: the console's sign-in (`admin-signin`) has budgets apart from the portal's. */
    private readonly scope = 'signin',
  ) {}

  /**
   * Takes the attempt's place in the address's budget. Called before the account is even looked
   * up, so a flood of made-up logins from one address costs at most its budget of look-ups and
   * password hashes.
   */
  async admitAddress(address: string): Promise<SignInAdmission> {
    const window = this.window();
    const addressKey = `${this.scope}:address:${address}:${window.index}`;
    if (!(await this.take(addressKey, this.options.perAddress, window.end))) return this.refusal(window.end);
    return { admitted: true, attempt: new SignInAttempt(this.kv, window.end, this.now, [addressKey]) };
  }

  /**
   * Takes the attempt's place in the account's budget too (`userId` when the login names an
   * account, else undefined). When the account's budget is spent, the address's place is given
   * back: only attempts whose password is checked count against the address.
   */
  async admitAccount(attempt: SignInAttempt, userId: string | undefined, login: string): Promise<SignInAdmission> {
    const window = this.window();
    const account = userId !== undefined ? `user:${userId}` : `login:${createHash('sha256').update(normaliseLogin(login)).digest('hex').slice(0, 32)}`;
    const accountKey = `${this.scope}:account:${account}:${window.index}`;
    if (!(await this.take(accountKey, this.options.perAccount, window.end))) {
      await attempt.release();
      return this.refusal(window.end);
    }
    return { admitted: true, attempt: attempt.with(accountKey, window.end) };
  }

  private async take(key: string, budget: number, windowEnd: number): Promise<boolean> {
    const result = await this.kv.adjust(key, 1, { max: budget, ttlMs: Math.max(windowEnd - this.now(), 1000) });
    return result.applied;
  }

  private refusal(windowEnd: number): SignInAdmission {
    return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - this.now()) / 1000)) };
  }

  private window(): { index: number; end: number } {
    const index = Math.floor(this.now() / this.options.windowMs);
    return { index, end: (index + 1) * this.options.windowMs };
  }
}

/** The places one attempt holds in the budgets; a failed attempt simply keeps them. */
export class SignInAttempt {
  #given = false;

  constructor(
    private readonly kv: Kv,
    private readonly windowEnd: number,
    private readonly now: () => number,
    private readonly keys: readonly string[],
  ) {}

  with(key: string, windowEnd: number): SignInAttempt {
    return new SignInAttempt(this.kv, Math.max(this.windowEnd, windowEnd), this.now, [...this.keys, key]);
  }

  /**
   * Gives the attempt's places back (the password was right, or another budget refused it);
   * never below zero, at most once.
   */
  async release(): Promise<void> {
    if (this.#given) return;
    this.#given = true;
    const ttlMs = Math.max(this.windowEnd - this.now(), 1000);
    await Promise.all(this.keys.map((key) => this.kv.adjust(key, -1, { min: 0, ttlMs })));
  }
}

/** Emails and names are matched without regard to case or surrounding spaces. */
export function normaliseLogin(login: string): string {
  return login.trim().toLowerCase();
}
