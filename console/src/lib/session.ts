/**
 * Who is signed in. The credential lives in sessionStorage only: it dies with the tab, is never
 * a cookie, and so cannot ride along on a cross-site request (every call sends it as a Bearer
 * header explicitly).
 */
export type Session = { role: 'operator'; token: string } | { role: 'key'; key: string };

const STORAGE_NAME = 'switchyard.session';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_NAME);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session> & Record<string, unknown>;
    if (parsed.role === 'operator' && typeof parsed.token === 'string') return { role: 'operator', token: parsed.token };
    if (parsed.role === 'key' && typeof parsed.key === 'string') return { role: 'key', key: parsed.key };
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

export function bearerOf(session: Session): string {
  return session.role === 'operator' ? session.token : session.key;
}
