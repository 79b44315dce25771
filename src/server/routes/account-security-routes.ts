import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.ts';
import type { IdentityOwner } from '../../domain/identity.ts';
import { TotpFactors } from '../../identity/totp-factors.ts';
import type { AppDeps } from '../app-deps.ts';
import type { User } from '../../domain/user.ts';
import { totpCodeSchema } from './admin-people-schemas.ts';
import { parseAdminInput } from './parse-admin-input.ts';

/**
 * What an account holder does to their own sign-in (issue 29), inside the portal's session
 * scope: TOTP enrolment, confirmation and removal.
 */
export function registerAccountSecurityRoutes(account: FastifyInstance, deps: AppDeps, session: (request: FastifyRequest) => { user: User; tokenHash: string }): void {
  const factors = new TotpFactors(deps.store.identity, () => deps.runtime.now());
  const ownerOf = (request: FastifyRequest): IdentityOwner => ({ kind: 'user', id: session(request).user.id });

  account.post('/totp', async (request) => factors.enrol(ownerOf(request), `${session(request).user.name} (portal)`));
  account.post('/totp/verify', async (request) => {
    const { code } = parseAdminInput(totpCodeSchema, request.body);
    await factors.confirm(ownerOf(request), code);
    return { totp: true };
  });
  account.delete('/totp', async (request, reply) => {
    const { code } = parseAdminInput(totpCodeSchema, request.body);
    // A current code, not just the session: whoever borrowed the browser cannot remove the factor.
    if ((await factors.check(ownerOf(request), code)) !== 'passed') throw new GatewayError('sign_in_failed', 'That two-factor code is wrong or was already used.');
    await factors.disable(ownerOf(request));
    return reply.code(204).send();
  });
}
