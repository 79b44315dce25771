import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from '../access/hash-password.ts';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { OneTimePurpose } from '../domain/identity.ts';
import type { User } from '../domain/user.ts';
import type { Kv } from '../kv/kv.ts';
import type { Mailer } from '../mail/mailer.ts';
import { StoreConflictError, type Store } from '../store/store.ts';
import { readSignInSettings } from './sign-in-settings.ts';
import { readSignUpSettings } from './sign-up-settings.ts';
import { SignUpThrottle, type SignUpThrottleOptions } from './sign-up-throttle.ts';
import { verifyCaptcha } from './verify-captcha.ts';

export const VERIFY_LINK_TTL_MS = 24 * 3_600_000;
export const RESET_LINK_TTL_MS = 3_600_000;

export interface SignUpRequest {
  email: string;
  password: string;
  captchaToken?: string | undefined;
  referralCode?: string | undefined;
}

export interface SelfSignUpOptions {
  store: Store;
  kv: Kv;
  mailer: Mailer;
  now: () => number;
  /** PUBLIC_URL: the origin the e-mailed links point at. */
  publicUrl: string | undefined;
  throttle?: SignUpThrottleOptions;
  /**
   * Called once a verified account exists, with the referral code it signed up with. The seam for
   * a referral module (issue 29 keeps the field; crediting a referrer is that module's job).
   */
  onAccountCreated?: (user: User, context: { referralCode: string | null }) => Promise<void>;
}

/**
 * Self sign-up and password reset by e-mail (issue 29). Nothing is created until the e-mailed
 * link comes back: the pending sign-up (e-mail, password hash, referral code) rides in the
 * one-time link's row, so an address nobody controls never holds an account or its name. Every
 * answer to the public is the same 202 whether or not the address has an account.
 */
export class SelfSignUp {
  private readonly throttle: SignUpThrottle;

  constructor(private readonly options: SelfSignUpOptions) {
    this.throttle = new SignUpThrottle(options.kv, options.now, options.throttle);
  }

  async signUp(request: SignUpRequest, clientIp: string): Promise<void> {
    const { store } = this.options;
    const settings = await readSignUpSettings(store);
    if (!settings.enabled || (await readSignInSettings(store.settings)).oidcOnly) {
      throw new GatewayError('sign_in_method_disabled', 'Sign-up is closed on this gateway: ask the operator for an account.');
    }
    const email = request.email.trim().toLowerCase();
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (settings.emailDomains.length > 0 && !settings.emailDomains.includes(domain)) {
      throw invalidRequest(`email: sign-up is open to addresses at ${settings.emailDomains.join(', ')} only.`, 'email');
    }
    await this.admit(clientIp, email);
    if (settings.captcha && !(await verifyCaptcha(settings.captcha, request.captchaToken, clientIp))) {
      throw new GatewayError('captcha_failed', 'The captcha check failed or expired: solve it again and resend.', { param: 'captchaToken' });
    }
    if (await this.findByEmail(email)) {
      await this.mail(
        email,
        'You already have an account',
        'Someone (maybe you) tried to sign up with this address, which already has an account. If you forgot its password, use "Forgot password" on the sign-in page.',
      );
      return;
    }
    const payload = JSON.stringify({ passwordHash: await hashPassword(request.password), referralCode: request.referralCode ?? null });
    const link = await this.issueLink('sign-up', email, payload, VERIFY_LINK_TTL_MS, '/api/account/verify');
    await this.mail(
      email,
      'Confirm your e-mail address',
      `Open this link within 24 hours to finish creating your account:\n\n${link}\n\nIf you did not sign up, ignore this mail.`,
    );
  }

  /** Creates the account of a verified sign-up link (once; an expired or used link is refused). */
  async verify(token: string): Promise<User> {
    const { store } = this.options;
    const row = await store.identity.consumeOneTimeToken(hashLinkToken(token), 'sign-up', this.options.now());
    if (!row) throw linkInvalid();
    const pending = JSON.parse(row.payload) as { passwordHash: string; referralCode: string | null };
    if (await this.findByEmail(row.email)) throw new GatewayError('conflict', 'This address already has an account: sign in instead.');
    const settings = await readSignUpSettings(store);
    let user: User;
    try {
      user = await store.users.create({ name: row.email, email: row.email, passwordHash: pending.passwordHash, balanceMicros: settings.initialCreditMicros });
    } catch (error) {
      if (error instanceof StoreConflictError) throw new GatewayError('conflict', 'This address already has an account: sign in instead.');
      throw error;
    }
    await this.options.onAccountCreated?.(user, { referralCode: pending.referralCode });
    return user;
  }

  /** Always ends quietly (202 to the caller): whether the address has an account is not told. */
  async requestReset(emailInput: string, clientIp: string): Promise<void> {
    const email = emailInput.trim().toLowerCase();
    await this.admit(clientIp, email);
    const user = await this.findByEmail(email);
    if (!user || !user.enabled) return;
    // The console's reset page reads the token and posts it with the new password to /api/account/password-reset/confirm.
    const link = await this.issueLink('password-reset', email, JSON.stringify({ userId: user.id }), RESET_LINK_TTL_MS, '/console/reset-password');
    await this.mail(
      email,
      'Reset your password',
      `Open this link within an hour to choose a new password:\n\n${link}\n\nIf you did not ask for this, ignore this mail; your password stays as it is.`,
    );
  }

  /** Sets the new password of a reset link (once) and ends every session of the account. */
  async confirmReset(token: string, password: string): Promise<void> {
    const { store } = this.options;
    const row = await store.identity.consumeOneTimeToken(hashLinkToken(token), 'password-reset', this.options.now());
    if (!row) throw linkInvalid();
    const { userId } = JSON.parse(row.payload) as { userId: string };
    const user = await store.users.find(userId);
    if (!user || !user.enabled || user.email?.toLowerCase() !== row.email) throw linkInvalid();
    await store.users.update(user.id, { passwordHash: await hashPassword(password) });
    await store.accountSessions.deleteAllOf(user.id);
  }

  private async admit(clientIp: string, email: string): Promise<void> {
    const wait = await this.throttle.admit(clientIp, email);
    if (wait > 0)
      throw new GatewayError('rate_limited', `Too many sign-up or reset requests from your network or for this address; try again in ${wait} seconds.`, {
        retryAfterSeconds: wait,
      });
  }

  private async issueLink(purpose: OneTimePurpose, email: string, payload: string, ttlMs: number, path: string): Promise<string> {
    const publicUrl = this.options.publicUrl;
    if (!publicUrl) throw new GatewayError('internal_error', 'PUBLIC_URL is not set, so no e-mailed link can point at this gateway; the operator must set it.');
    const token = randomBytes(32).toString('base64url');
    await this.options.store.identity.createOneTimeToken({ tokenHash: hashLinkToken(token), purpose, email, payload, expiresAt: this.options.now() + ttlMs });
    return `${publicUrl}${path}?token=${token}`;
  }

  private async mail(to: string, subject: string, text: string): Promise<void> {
    await this.options.mailer.send({ to, subject, text });
  }

  private async findByEmail(email: string): Promise<User | undefined> {
    return (await this.options.store.users.list()).find((user) => user.email?.toLowerCase() === email);
  }
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function linkInvalid(): GatewayError {
  return new GatewayError('link_invalid', 'This link was already used, has expired, or is not one of ours: ask for a new one.');
}
