import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.ts';
import type { IdentityOwner } from '../../domain/identity.ts';
import { TotpFactors } from '../../identity/totp-factors.ts';
import type { AppDeps } from '../app-deps.ts';
import type { User } from '../../domain/user.ts';
import { totpCodeSchema } from '../admin/admin-people-schemas.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { clearSessionCookie } from '../session-cookie.ts';
import type { SessionDevice } from '../../store/store.ts';

/**
 * What an account holder does to their own sign-in (issue 29), inside the portal's session
 * scope: TOTP enrolment, confirmation and removal.
 */
export function registerAccountSecurityRoutes(
  account: FastifyInstance,
  deps: AppDeps,
  session: (request: FastifyRequest) => { user: User; tokenHash: string },
): void {
  const factors = new TotpFactors(deps.store.identity, () => deps.runtime.now());
  const ownerOf = (request: FastifyRequest): IdentityOwner => ({ kind: 'user', id: session(request).user.id });

  account.post('/totp', async (request) => factors.enrol(ownerOf(request), `${session(request).user.name} (portal)`));
  account.post('/totp/verify', async (request) => {
    const { code } = parseAdminInput(totpCodeSchema, request.body);
    await factors.confirm(ownerOf(request), code);
    return { totp: true };
  });
  // Sessions: the owner sees where they are signed in and ends one, or all ("sign out everywhere").
  const devices = deps.store.sessionDevices.portal;
  account.get('/sessions', async (request) => {
    const { user, tokenHash } = session(request);
    return { data: (await devices.list(user.id, deps.runtime.now())).map((entry) => sessionView(entry, tokenHash)) };
  });
  account.delete('/sessions/:id', async (request, reply) => {
    const id = (request.params as Record<string, string>).id ?? '';
    if (!(await devices.revoke(session(request).user.id, id))) throw new GatewayError('not_found', `You have no session "${id}".`);
    return reply.code(204).send();
  });
  account.delete('/sessions', async (request, reply) => {
    await devices.revokeAll(session(request).user.id);
    clearSessionCookie(request, reply);
    return reply.code(204).send();
  });

  account.delete('/totp', async (request, reply) => {
    const { code } = parseAdminInput(totpCodeSchema, request.body);
    // A current code, not just the session: whoever borrowed the browser cannot remove the factor.
    if ((await factors.check(ownerOf(request), code)) !== 'passed')
      throw new GatewayError('sign_in_failed', 'That two-factor code is wrong or was already used.');
    await factors.disable(ownerOf(request));
    return reply.code(204).send();
  });
}

/** What a session shows its owner or an admin: never the cookie or its hash. */
export function sessionView(session: SessionDevice, currentTokenHash?: string) {
  return {
    id: session.id,
    device: session.userAgent,
    address: session.clientIp,
    createdAt: new Date(session.createdAt).toISOString(),
    lastSeenAt: new Date(session.lastSeenAt).toISOString(),
    expiresAt: new Date(session.expiresAt).toISOString(),
    current: session.tokenHash === currentTokenHash,
  };
}

/** The User-Agent a session signs in with, as the device people recognise it by. */
export function userAgentOf(request: FastifyRequest): string | null {
  const agent = request.headers['user-agent'];
  return typeof agent === 'string' && agent !== '' ? agent.slice(0, 300) : null;
}
