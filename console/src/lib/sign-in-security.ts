import { call } from './api.ts';
import type { Session } from './session.ts';

/** A signed-in session as its owner sees it (issue 29): never the cookie. */
export interface SessionRow {
  id: string;
  device: string | null;
  address: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** What enrolling TOTP answers, once: the store keeps the secret sealed and the codes hashed. */
export interface TotpEnrolment {
  otpauthUrl: string;
  secret: string;
  recoveryCodes: string[];
}

export interface SignInSecurityApi {
  sessions(): Promise<SessionRow[]>;
  revoke(id: string): Promise<void>;
  twoFactorOn(): Promise<boolean>;
  enrol(): Promise<TotpEnrolment>;
  confirm(code: string): Promise<void>;
  turnOff(code: string): Promise<void>;
}

/**
 * The signed-in person's sessions and TOTP: the portal's (`/api/account/sessions`, `/totp`) for an
 * account holder, the console's (`/api/admin/me/sessions`, `/me/totp`) for a named admin.
 */
export function signInSecurityApi(session: Session): SignInSecurityApi {
  const account = session.role === 'account';
  const base = account ? '/api/account' : '/api/admin/me';
  const csrf = account ? { csrf: session.csrf } : {};
  return {
    sessions: async () => (await call<{ data: SessionRow[] }>(`${base}/sessions`, csrf)).data,
    revoke: async (id) => {
      await call(`${base}/sessions/${encodeURIComponent(id)}`, { method: 'DELETE', ...csrf });
    },
    twoFactorOn: async () => (await call<{ twoFactor?: boolean }>(base, csrf)).twoFactor === true,
    enrol: () => call<TotpEnrolment>(`${base}/totp`, { method: 'POST', ...csrf }),
    confirm: async (code) => {
      await call(`${base}/totp/verify`, { method: 'POST', body: { code }, ...csrf });
    },
    turnOff: async (code) => {
      await call(`${base}/totp`, { method: 'DELETE', body: { code }, ...csrf });
    },
  };
}
