import { GatewayError } from '../core/gateway-error.ts';
import type { User } from '../domain/user.ts';
import type { PortalDeps } from './portal-deps.ts';
import { csrfMatches, hashSessionToken, newSessionSecret } from './session-secret.ts';
import { normaliseLogin, type PasswordCheck, type SignInThrottle } from './sign-in-throttle.ts';

/** A signed-in portal session, as the portal's handlers see it. */
export interface PortalSession {
  user: User;
  tokenHash: string;
  csrfToken: string;
  expiresAt: number;
}

/** A new session: the cookie's secret (shown once, kept only as its hash) and the session itself. */
export interface OpenedSession extends PortalSession {
  token: string;
}

/** One sign-in attempt to the portal. */
export interface PortalSignInAttempt {
  address: string;
  login: string;
  password: string;
  ttlMs: number;
  /** The browser's user agent, shown in the account's session list. */
  userAgent?: string | null;
  /** The rest of a password sign-in once the password matched (the second factor; see `PasswordCheck.afterPassword`). */
  afterPassword?: PasswordCheck<User>['afterPassword'];
}

/**
 * Checks the password through the throttle (see `SignInThrottle.checkPassword`) and opens a
 * session: a random 256-bit token (the database keeps its SHA-256) and its CSRF token.
 */
export async function openPortalSession(deps: PortalDeps, throttle: SignInThrottle, attempt: PortalSignInAttempt): Promise<OpenedSession> {
  const user = await throttle.checkPassword({
    address: attempt.address,
    login: attempt.login,
    password: attempt.password,
    find: (login) => findUserByLogin(deps, login),
    mismatch: 'That email or name and password do not match an enabled account.',
    throttled: (seconds) => `Too many failed sign-ins for this account or from this address; try again in ${seconds} seconds.`,
    ...(attempt.afterPassword === undefined ? {} : { afterPassword: attempt.afterPassword }),
  });
  return createPortalSession(deps, user, attempt);
}

/** A session for someone already proven to be `user` (a password above, or a passkey). */
export async function createPortalSession(
  deps: PortalDeps,
  user: User,
  attempt: Pick<PortalSignInAttempt, 'address' | 'ttlMs' | 'userAgent'>,
): Promise<OpenedSession> {
  const token = newSessionSecret();
  const csrfToken = newSessionSecret();
  const createdAt = deps.runtime.now();
  const expiresAt = createdAt + attempt.ttlMs;
  const tokenHash = hashSessionToken(token);
  await deps.store.accountSessions.create({ tokenHash, userId: user.id, csrfToken, clientIp: attempt.address, createdAt, expiresAt });
  await deps.store.sessionDevices.portal.touch(tokenHash, createdAt, attempt.userAgent);
  return { user, token, tokenHash, csrfToken, expiresAt };
}

/** Why a cookie opens no session: none was sent, it ended, or its account is gone or disabled. */
export type SessionLookup = { found: PortalSession } | { refusal: GatewayError };

/**
 * The session a cookie opens; a state-changing call must also carry its CSRF token. A session of
 * a disabled or deleted account is ended on the spot.
 */
export async function findPortalSession(deps: PortalDeps, token: string | undefined, csrfSent: unknown, changesState: boolean): Promise<SessionLookup> {
  const row = token === undefined ? undefined : await deps.store.accountSessions.find(hashSessionToken(token), deps.runtime.now());
  if (!row) {
    return { refusal: new GatewayError('session_required', 'You are not signed in, or your session has ended (sessions last 12 hours). Sign in again.') };
  }
  const user = await deps.store.users.find(row.userId);
  if (!user || !user.enabled || user.id !== row.userId) {
    await deps.store.accountSessions.delete(row.tokenHash);
    return { refusal: new GatewayError('session_required', 'This account is disabled or no longer exists; ask the operator.') };
  }
  if (changesState && !csrfMatches(csrfSent, row.csrfToken)) {
    throw new GatewayError('csrf_failed', 'The request lacks this session’s CSRF token (x-csrf-token). Reload the console and try again.');
  }
  return { found: { user, tokenHash: row.tokenHash, csrfToken: row.csrfToken, expiresAt: row.expiresAt } };
}

/** An account signs in with its exact name, or its e-mail in any case. */
async function findUserByLogin(deps: PortalDeps, login: string): Promise<User | undefined> {
  const trimmed = login.trim();
  const byName = await deps.store.users.find(trimmed);
  if (byName && byName.name === trimmed) return byName;
  const wanted = normaliseLogin(login);
  return (await deps.store.users.list()).find((user) => user.email !== null && user.email.toLowerCase() === wanted);
}
