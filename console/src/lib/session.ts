/**
 * Who is signed in. An operator's token and a key holder's key live in sessionStorage only: they
 * die with the tab, are never a cookie, and so cannot ride along on a cross-site request (every
 * call sends them as a Bearer header explicitly). An account's credential is the gateway's
 * HttpOnly, SameSite=Strict session cookie, which scripts cannot read; the tab keeps only the
 * account's name and the session's CSRF token (useless without the cookie).
 */
/** A named admin signed in to the console (issue 29): the cookie does the work; the tab keeps the CSRF token. */
export interface ConsoleAdmin {
  name: string;
  role: string;
  csrf: string;
}

export type Session =
  | { role: 'operator'; token: string; admin?: ConsoleAdmin }
  | { role: 'key'; key: string }
  | { role: 'account'; name: string; csrf: string };

const STORAGE_NAME = 'switchyard.session';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_NAME);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session> & Record<string, unknown>;
    if (parsed.role === 'operator' && typeof parsed.token === 'string') {
      const admin = parsed.admin as Partial<ConsoleAdmin> | undefined;
      if (admin && typeof admin.name === 'string' && typeof admin.role === 'string' && typeof admin.csrf === 'string') {
        return { role: 'operator', token: '', admin: { name: admin.name, role: admin.role, csrf: admin.csrf } };
      }
      return { role: 'operator', token: parsed.token };
    }
    if (parsed.role === 'key' && typeof parsed.key === 'string') return { role: 'key', key: parsed.key };
    if (parsed.role === 'account' && typeof parsed.name === 'string' && typeof parsed.csrf === 'string') {
      return { role: 'account', name: parsed.name, csrf: parsed.csrf };
    }
  } catch {
    // Storage disabled or corrupt: sign in again.
  }
  return null;
}

export function saveSession(session: Session | null): void {
  try {
    if (session === null) sessionStorage.removeItem(STORAGE_NAME);
    else sessionStorage.setItem(STORAGE_NAME, JSON.stringify(session));
  } catch {
    // Without storage the session lives in memory until the tab reloads.
  }
}

/** The Bearer credential of an operator or key holder (accounts use their cookie instead). */
export function bearerOf(session: Session): string {
  return session.role === 'operator' ? session.token : session.role === 'key' ? session.key : '';
}
