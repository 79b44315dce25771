import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { call } from './api.ts';
import type { ConsoleAdmin, Session } from './session.ts';

/** A passkey as its owner sees it (issue 29). */
export interface PasskeyRow {
  id: string;
  name: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Whose passkeys a page manages: the signed-in account's or the signed-in admin's. */
export interface PasskeyApi {
  list(): Promise<PasskeyRow[]>;
  register(name: string): Promise<PasskeyRow>;
  rename(id: string, name: string): Promise<PasskeyRow>;
  remove(id: string): Promise<void>;
}

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/**
 * The portal's (`/api/account/passkeys`) or the console's (`/api/admin/me/passkeys`) passkeys.
 * Every call rides on the session cookie with its CSRF token; the options call also sets the
 * ceremony cookie that ties the challenge to this browser.
 */
export function passkeyApi(session: Session): PasskeyApi {
  const account = session.role === 'account';
  const base = account ? '/api/account/passkeys' : '/api/admin/me/passkeys';
  const csrf = account ? { csrf: session.csrf } : {};
  return {
    list: async () => (await call<{ data: PasskeyRow[] }>(base, csrf)).data,
    async register(name) {
      const optionsJSON = await call<PublicKeyCredentialCreationOptionsJSON>(`${base}/options`, { method: 'POST', ...csrf });
      const response = await startRegistration({ optionsJSON });
      return call<PasskeyRow>(base, { method: 'POST', body: { ...(name.trim() === '' ? {} : { name: name.trim() }), response }, ...csrf });
    },
    rename: (id, name) => call<PasskeyRow>(`${base}/${encodeURIComponent(id)}`, { method: 'PATCH', body: { name }, ...csrf }),
    remove: async (id) => {
      await call(`${base}/${encodeURIComponent(id)}`, { method: 'DELETE', ...csrf });
    },
  };
}

/** Signs in with a passkey (no name asked: the authenticator offers this site's passkeys). */
export async function signInWithPasskey(audience: 'account' | 'person'): Promise<Session> {
  const base = audience === 'account' ? '/api/account/passkey-session' : '/api/admin/session/passkey';
  // csrf '' sends and keeps cookies (the ceremony cookie, then the session's) without a token.
  const optionsJSON = await call<PublicKeyCredentialRequestOptionsJSON>(`${base}/options`, { method: 'POST', csrf: '' });
  const response = await startAuthentication({ optionsJSON });
  if (audience === 'account') {
    const answer = await call<{ user: { name: string }; csrfToken: string }>(base, { method: 'POST', body: { response }, csrf: '' });
    return { role: 'account', name: answer.user.name, csrf: answer.csrfToken };
  }
  const answer = await call<{ admin: ConsoleAdmin; csrfToken: string }>(base, { method: 'POST', body: { response }, csrf: '' });
  return { role: 'operator', token: '', admin: { name: answer.admin.name, role: answer.admin.role, csrf: answer.csrfToken } };
}
