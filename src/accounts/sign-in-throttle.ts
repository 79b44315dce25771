import { createHash } from 'node:crypto';
import { verifyPassword } from '../access/hash-password.ts';
import { GatewayError } from '../core/gateway-error.ts';
import { type FixedWindow, fixedWindow, giveWindowPlacesBack, secondsLeft, takeWindowPlace } from '../kv/fixed-window.ts';
import type { Kv } from '../kv/kv.ts';

// A well-formed hash to verify against when the account does not exist, so "no such account"
// and "wrong password" take the same time (scrypt dominates either way).
export const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** An account as the password check sees it (a portal user or a console admin). */
export interface PasswordHolder {
  id: string;
  passwordHash: string | null;
  enabled: boolean;
}

/** One sign-in to check: who claims to sign in, from where, and the words of its refusals. */
export interface PasswordCheck<T extends PasswordHolder> {
  address: string;
  login: string;
  password: string;
  find(login: string): Promise<T | undefined>;
  /** The 401's message when the login and password match no enabled account. */
  mismatch: string;
  /** The 429's message, given the seconds to wait. */
  throttled(seconds: number): string;
  /**
   * Run after the password matched and before the attempt's places are given back: the rest of
   * a password sign-in (passwords allowed, the second factor). A throw keeps the places taken.
   */
  afterPassword?(holder: T, attempt: SignInAttempt): Promise<void>;
}

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
    if (!(await this.take(addressKey, this.options.perAddress, window))) return this.refusal(window);
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
    if (!(await this.take(accountKey, this.options.perAccount, window))) {
      await attempt.release();
      return this.refusal(window);
    }
    return { admitted: true, attempt: attempt.with(accountKey, window.end) };
  }

  /**
   * The one throttled password check of both sign-ins (portal and console): both budgets are
   * taken before the password is hashed, an unknown login costs the same hash as a known one,
   * and a right password gives its places back. Returns the account, or throws the 429 / 401.
   */
  async checkPassword<T extends PasswordHolder>(check: PasswordCheck<T>): Promise<T> {
    const byAddress = await this.admitAddress(check.address);
    if (!byAddress.admitted) throw throttledError(check, byAddress.retryAfterSeconds);
    const holder = await check.find(check.login);
    const admission = await this.admitAccount(byAddress.attempt, holder?.id, check.login);
    if (!admission.admitted) throw throttledError(check, admission.retryAfterSeconds);
    const passwordOk = await verifyPassword(check.password, holder?.passwordHash ?? DUMMY_HASH);
    if (!holder || !holder.passwordHash || !passwordOk || !holder.enabled) throw new GatewayError('sign_in_failed', check.mismatch);
    await check.afterPassword?.(holder, admission.attempt);
    await admission.attempt.release();
    return holder;
  }

  private take(key: string, budget: number, window: FixedWindow): Promise<boolean> {
    return takeWindowPlace(this.kv, key, budget, window, this.now());
  }

  private refusal(window: FixedWindow): SignInAdmission {
    return { admitted: false, retryAfterSeconds: secondsLeft(window, this.now()) };
  }

  private window(): FixedWindow {
    return fixedWindow(this.now(), this.options.windowMs);
  }
}

function throttledError(check: PasswordCheck<PasswordHolder>, seconds: number): GatewayError {
  return new GatewayError('rate_limited', check.throttled(seconds), { retryAfterSeconds: seconds });
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
    await giveWindowPlacesBack(this.kv, this.keys, this.windowEnd, this.now());
  }
}

/** Emails and names are matched without regard to case or surrounding spaces. */
export function normaliseLogin(login: string): string {
  return login.trim().toLowerCase();
}
