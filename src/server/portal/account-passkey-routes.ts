import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createPortalSession, type PortalSession } from '../../accounts/portal-sessions.ts';
import { portalUser } from '../../accounts/portal-account.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { PortalSignIn } from '../../domain/account-portal-api.ts';
import type { IdentityOwner } from '../../domain/identity.ts';
import { refuseWhenOidcOnly } from '../../identity/sign-in-settings.ts';
import type { AppDeps } from '../app-deps.ts';
import { clientIpOf } from '../authenticate-request.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { admitPasskeyOptions } from '../passkey-options-cap.ts';
import {
  asAuthenticationResponse,
  asRegistrationResponse,
  ceremonyCookieOf,
  defaultPasskeyName,
  passkeyRegistrationSchema,
  passkeyRenameSchema,
  passkeySignInSchema,
  passkeysOf,
  passkeyView,
  setCeremonyCookie,
} from '../passkey-http.ts';
import { setSessionCookie } from '../session-cookie.ts';
import { userAgentOf } from './account-security-routes.ts';

/** The portal's public passkey sign-in (no session yet); `account-routes.ts` lets these two through its session check. */
export const PORTAL_PASSKEY_SIGN_IN_PATHS = ['/api/account/passkey-session/options', '/api/account/passkey-session'];

/**
 * An account holder's passkeys (issue 29): register (options, then the authenticator's answer),
 * list, rename, remove, inside the portal's session scope; and sign in with one, outside it.
 */
export function registerAccountPasskeyRoutes(
  account: FastifyInstance,
  deps: AppDeps,
  session: (request: FastifyRequest) => PortalSession,
  ttlMs: number,
): void {
  const passkeys = passkeysOf(deps);
  const ownerOf = (request: FastifyRequest): IdentityOwner => ({ kind: 'user', id: session(request).user.id });
  const passkeyId = (request: FastifyRequest) => (request.params as Record<string, string>).id ?? '';

  account.get('/passkeys', async (request) => ({ data: (await deps.store.passkeys.list(ownerOf(request))).map(passkeyView) }));
  account.post('/passkeys/options', async (request, reply) => {
    const { user } = session(request);
    const started = await passkeys.startRegistration(ownerOf(request), user.email ?? user.name);
    setCeremonyCookie(request, reply, started.ceremonyId);
    return started.options;
  });
  account.post('/passkeys', async (request, reply) => {
    const input = parseAdminInput(passkeyRegistrationSchema, request.body);
    const name = input.name ?? defaultPasskeyName(request);
    const saved = await passkeys.finishRegistration(ceremonyCookieOf(request), ownerOf(request), asRegistrationResponse(input.response), name);
    return reply.code(201).send(passkeyView(saved));
  });
  account.patch('/passkeys/:id', async (request) => {
    const { name } = parseAdminInput(passkeyRenameSchema, request.body);
    const renamed = await deps.store.passkeys.rename(ownerOf(request), passkeyId(request), name);
    if (!renamed) throw new GatewayError('not_found', `You have no passkey "${passkeyId(request)}".`);
    return passkeyView(renamed);
  });
  account.delete('/passkeys/:id', async (request, reply) => {
    if (!(await deps.store.passkeys.delete(ownerOf(request), passkeyId(request))))
      throw new GatewayError('not_found', `You have no passkey "${passkeyId(request)}".`);
    return reply.code(204).send();
  });

  account.post('/passkey-session/options', async (request, reply) => {
    await refuseWhenOidcOnly(deps.store.settings);
    await admitPasskeyOptions(deps, request, 'portal');
    const started = await passkeys.startSignIn('portal');
    setCeremonyCookie(request, reply, started.ceremonyId);
    return started.options;
  });
  account.post('/passkey-session', async (request, reply): Promise<PortalSignIn> => {
    await refuseWhenOidcOnly(deps.store.settings);
    const { response } = parseAdminInput(passkeySignInSchema, request.body);
    const passkey = await passkeys.finishSignIn(ceremonyCookieOf(request), 'portal', asAuthenticationResponse(response));
    const user = await deps.store.users.find(passkey.owner.id);
    if (!user || !user.enabled || user.id !== passkey.owner.id)
      throw new GatewayError('sign_in_failed', 'This passkey’s account is disabled or no longer exists.');
    const opened = await createPortalSession(deps, user, { address: clientIpOf(deps, request), ttlMs, userAgent: userAgentOf(request) });
    setSessionCookie(request, reply, opened.token, Math.floor(ttlMs / 1000));
    return { user: await portalUser(deps, user), csrfToken: opened.csrfToken, sessionExpiresAt: new Date(opened.expiresAt).toISOString() };
  });
}
