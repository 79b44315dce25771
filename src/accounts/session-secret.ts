import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new random session secret (256 bits), as sent in the cookie or the CSRF header. */
export function newSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a cookie value. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Constant-time comparison of the CSRF header with the session's token. */
export function csrfMatches(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string' || sent.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}
