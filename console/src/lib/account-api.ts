import { call, type CallOptions } from './api.ts';
import { type PortalKey as AccountKey, type PortalUsage as AccountUsage, type PortalAccountView as AccountView } from '../../../src/domain/account-portal-api.ts';
import type { Session } from './session.ts';

type AccountSession = Extract<Session, { role: 'account' }>;

/** A call as the signed-in account: cookie plus the session's CSRF token. */
export function accountCall<T>(session: AccountSession, path: string, options: Omit<CallOptions, 'csrf' | 'bearer'> = {}): Promise<T> {
  return call<T>(`/api/account${path}`, { ...options, csrf: session.csrf });
}

export function loadAccount(session: AccountSession): Promise<AccountView> {
  return accountCall<AccountView>(session, '');
}

export async function loadAccountKeys(session: AccountSession): Promise<AccountKey[]> {
  return (await accountCall<{ data: AccountKey[] }>(session, '/keys')).data;
}

export function loadAccountUsage(session: AccountSession, days: number): Promise<AccountUsage> {
  return accountCall<AccountUsage>(session, `/usage?days=${days}`);
}

/** Signs in with email or name and password; the gateway sets the HttpOnly session cookie. */
export async function signInAccount(login: string, password: string, totp?: string): Promise<AccountSession> {
  const answer = await call<{ user: { name: string }; csrfToken: string }>('/api/account/session', {
    method: 'POST',
    body: { login, password, ...(totp === undefined ? {} : { totp }) },
    csrf: '',
  });
  return { role: 'account', name: answer.user.name, csrf: answer.csrfToken };
}

export async function signOutAccount(session: AccountSession): Promise<void> {
  await accountCall(session, '/session', { method: 'DELETE' });
}
