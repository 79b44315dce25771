import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashSessionToken, newSessionSecret } from '../../accounts/session-secret.ts';
import type { Admin, AdminSession } from '../../domain/admin.ts';
import type { AppDeps } from '../app-deps.ts';
import { clientIpOf } from '../authenticate-request.ts';
import { userAgentOf } from '../portal/account-security-routes.ts';
import { CONSOLE_SESSION_COOKIE, setSessionCookie } from '../session-cookie.ts';

export const CONSOLE_SESSION_TTL_MS = 12 * 3_600_000;

/**
 * Opens a console session for a person already proven (password and second factor, or a
 * passkey): a random cookie kept as its hash, a CSRF token, the device; answers what the console keeps.
 */
export async function openConsoleSession(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  person: Admin,
  signInMethod?: AdminSession['signInMethod'],
): Promise<{ csrfToken: string; expiresAt: number }> {
  const token = newSessionSecret();
  const csrfToken = newSessionSecret();
  const address = clientIpOf(deps, request);
  const createdAt = deps.runtime.now();
  const expiresAt = createdAt + CONSOLE_SESSION_TTL_MS;
  const tokenHash = hashSessionToken(token);
  await deps.store.admins.createSession({
    tokenHash,
    adminId: person.id,
    csrfToken,
    clientIp: address,
    createdAt,
    expiresAt,
    ...(signInMethod ? { signInMethod } : {}),
  });
  await deps.store.sessionDevices.console.touch(tokenHash, createdAt, userAgentOf(request));
  setSessionCookie(request, reply, token, Math.floor(CONSOLE_SESSION_TTL_MS / 1000), CONSOLE_SESSION_COOKIE);
  deps.logger.info({ event: 'admin_sign_in', admin: person.name, clientIp: address, method: signInMethod ?? 'password' }, `admin signed in: ${person.name}`);
  return { csrfToken, expiresAt };
}
