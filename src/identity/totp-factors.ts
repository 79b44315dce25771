import { createHash, randomBytes } from 'node:crypto';
import type * as OtpAuth from 'otpauth';
import { requireOnDemand } from '../core/require-on-demand.ts';

/** Loaded on the first two-factor use, not at start-up (idle RSS). */
const otpauth = (): typeof OtpAuth => requireOnDemand('otpauth') as typeof OtpAuth;
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { IdentityOwner } from '../domain/identity.ts';
import type { IdentityRepository } from '../store/store.ts';

const PERIOD_SECONDS = 30;
const RECOVERY_CODES = 10;
/** One step either side: a phone clock 30 s off still signs in. */
const WINDOW = 1;

/** What enrolment shows once: the secret as a URL for an authenticator app and as text, and the recovery codes. */
export interface TotpEnrolment {
  otpauthUrl: string;
  secret: string;
  recoveryCodes: string[];
}

/**
 * TOTP two-factor (RFC 6238, through `otpauth`) for account holders and admins. The secret is
 * sealed at rest by the store; recovery codes are shown once and kept as SHA-256. A code is
 * accepted once: its time step is recorded with a conditional write, so a code seen by an
 * eavesdropper (or sent to two instances) signs in at most once.
 */
export class TotpFactors {
  constructor(
    private readonly repository: IdentityRepository,
    private readonly now: () => number,
    private readonly issuer = 'Switchyard',
  ) {}

  /** A new, unconfirmed factor; refused while a confirmed one exists (disable it first). */
  async enrol(owner: IdentityOwner, label: string): Promise<TotpEnrolment> {
    const existing = await this.repository.findTotp(owner);
    if (existing?.confirmedAt != null) {
      throw new GatewayError('conflict', 'Two-factor sign-in is already on for this account; turn it off first to enrol a new authenticator.');
    }
    const { Secret, TOTP } = otpauth();
    const secret = new Secret({ size: 20 });
    const recoveryCodes = Array.from({ length: RECOVERY_CODES }, () => formatRecoveryCode(randomBytes(10)));
    await this.repository.saveTotp(owner, secret.base32, recoveryCodes.map(hashRecoveryCode));
    const totp = new TOTP({ issuer: this.issuer, label, secret, period: PERIOD_SECONDS });
    return { otpauthUrl: totp.toString(), secret: secret.base32, recoveryCodes };
  }

  /** Confirms an enrolment with the first code the app shows. */
  async confirm(owner: IdentityOwner, code: string): Promise<void> {
    const factor = await this.repository.findTotp(owner);
    if (!factor) throw new GatewayError('not_found', 'Enrol first (POST …/totp), then send the code your authenticator shows.');
    if (!(await this.acceptCode(owner, factor.secret, code, true))) throw invalidRequest('code: that is not the current code of this authenticator.', 'code');
  }

  /** Whether the owner has a confirmed factor (sign-in then asks for a code). */
  async isOn(owner: IdentityOwner): Promise<boolean> {
    return (await this.repository.findTotp(owner))?.confirmedAt != null;
  }

  /**
   * Checks the second factor at sign-in: a current code (once) or an unused recovery code
   * (spent). No factor: nothing to check. A missing code is `totp_required`; a wrong one fails
   * the sign-in like a wrong password.
   */
  async check(owner: IdentityOwner, code: string | undefined): Promise<'none' | 'passed' | 'failed' | 'missing'> {
    const factor = await this.repository.findTotp(owner);
    if (!factor || factor.confirmedAt === null) return 'none';
    if (code === undefined || code.trim() === '') return 'missing';
    const trimmed = code.replace(/\s+/g, '');
    if (/^\d{6}$/.test(trimmed)) return (await this.acceptCode(owner, factor.secret, trimmed, false)) ? 'passed' : 'failed';
    return (await this.repository.useRecoveryCode(owner, hashRecoveryCode(code))) ? 'passed' : 'failed';
  }

  async disable(owner: IdentityOwner): Promise<boolean> {
    return this.repository.deleteTotp(owner);
  }

  private async acceptCode(owner: IdentityOwner, secret: string, code: string, confirm: boolean): Promise<boolean> {
    const timestamp = this.now();
    const { Secret, TOTP } = otpauth();
    const delta = TOTP.validate({ token: code.replace(/\s+/g, ''), secret: Secret.fromBase32(secret), period: PERIOD_SECONDS, timestamp, window: WINDOW });
    if (delta === null) return false;
    const step = Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
    return this.repository.acceptTotpStep(owner, step, confirm);
  }
}

/** `abcde-fghij`: 10 characters (50 bits) of an alphabet without look-alikes, easy to type from paper. */
function formatRecoveryCode(bytes: Buffer): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const characters = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
  return `${characters.slice(0, 5)}-${characters.slice(5, 10)}`;
}

/** Recovery codes are matched without regard to case, spaces or dashes. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256')
    .update(code.toLowerCase().replace(/[\s-]+/g, ''))
    .digest('hex');
}
