import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { roleAllows, type AdminPermission } from '../../access/admin-permissions.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { AdminRole, AdminSession } from '../../domain/admin.ts';
import { readSignInSettings } from '../../identity/sign-in-settings.ts';
import { hashApiKey } from '../../access/hash-api-key.ts';
import { ADMIN_OPERATIONS, type AdminOperation } from './admin-api-description.ts';
import type { AppDeps } from '../app-deps.ts';
import { clearSessionCookie, CONSOLE_SESSION_COOKIE, readSessionCookie, sameOrigin } from '../session-cookie.ts';
import { csrfMatches, hashSessionToken } from '../../accounts/session-secret.ts';
import { bearerMatches, bearerTokenOf, refuseWhileBlocked } from './require-admin.ts';

/** Who is calling the admin API; `name` is what the audit log records. */
export interface AdminActor {
  via: 'break-glass' | 'session' | 'token';
  /** The person's name; a minted token's name followed by its creator's; `break-glass` for GATEWAY_ADMIN_TOKEN. */
  name: string;
  role: AdminRole;
  /** The signed-in person, or the person who minted the token (null: break-glass). */
  adminId: string | null;
  /** With `via: 'session'`: the console session. */
  session?: AdminSession;
}

/**
 * The one gate of `/api/admin` (issue 29). On request (before the body is read) the caller is
 * authenticated: the console session cookie (state-changing calls also need its CSRF header and
 * a same-site Origin), or a bearer token, either GATEWAY_ADMIN_TOKEN (break-glass, owner) or a
 * minted admin token. Before the handler, the operation's permission from ADMIN_OPERATIONS (the
 * one permission table) is checked against the caller's role: 403 `insufficient_role`.
 */
export function registerAdminAuthorization(app: FastifyInstance, deps: AppDeps): void {
  const operations = new Map(ADMIN_OPERATIONS.map((operation) => [`${operation.method} ${operation.route}`, operation]));
  const operationOf = (request: FastifyRequest): AdminOperation | undefined => {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    return operations.get(`${method} ${request.routeOptions.url}`);
  };
  const isAdminUrl = (url: string | undefined) => url?.startsWith('/api/admin/') === true && url !== '/api/admin/openapi.json';

  const authenticate = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.header('cache-control', 'no-store');
    const operation = operationOf(request);
    // Unreachable while create-app's check holds (every admin route is described); refused, never let through.
    if (!operation) throw new GatewayError('internal_error', `${request.method} ${request.routeOptions.url} declares no permission.`);
    if (operation.permission === 'public') return;
    request.adminActor = await authenticateAdmin(deps, request, reply);
  };

  const authorize = async (request: FastifyRequest): Promise<void> => {
    const operation = operationOf(request);
    if (!operation || operation.permission === 'public') return;
    const actor = request.adminActor;
    if (!actor) throw new GatewayError('admin_unauthorized', 'Sign in to the console or send an admin token.');
    const needed = permissionNeeded(operation, request.body);
    if (!roleAllows(actor.role, needed)) {
      throw new GatewayError(
        'insufficient_role',
        `Your role (${actor.role}) does not allow ${request.method} ${request.routeOptions.url}: it needs the "${needed}" permission.`,
      );
    }
    // A passkey sign-in is two factors on its own (user verification is required), so it satisfies the rule.
    if (
      needed !== 'self' &&
      actor.via === 'session' &&
      actor.adminId &&
      actor.session?.signInMethod !== 'passkey' &&
      (await lacksRequiredTotp(deps, actor.adminId))
    ) {
      throw new GatewayError(
        'totp_enrolment_required',
        'The owner requires two-factor sign-in of every admin: enrol an authenticator (POST /api/admin/me/totp, then /me/totp/verify) before anything else.',
      );
    }
  };

  // On the admin routes only, first among each route's own hooks (so before anything else the
  // route does): as app-wide async hooks they cost every generation request two promises and two
  // microtask turns for a check that always said "not an admin route" (issue 33's CPU per request).
  app.addHook('onRoute', (route) => {
    if (!isAdminUrl(route.url)) return;
    route.onRequest = [authenticate, ...hookList(route.onRequest)];
    route.preHandler = [authorize, ...hookList(route.preHandler)];
  });
}

/** A route option's hooks as a list (Fastify takes one hook or several). */
function hookList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/** The owner's "TOTP for every admin" is on and this person has no confirmed factor yet. */
async function lacksRequiredTotp(deps: AppDeps, adminId: string): Promise<boolean> {
  if (!(await readSignInSettings(deps.store.settings)).requireAdminTotp) return false;
  return (await deps.store.identity.findTotp({ kind: 'admin', id: adminId }))?.confirmedAt == null;
}

/** The operation's permission, or its narrower one when the body changes only the fields that one covers. */
export function permissionNeeded(operation: AdminOperation, body: unknown): AdminPermission {
  const narrow = operation.narrowTo;
  if (!narrow || typeof body !== 'object' || body === null || Array.isArray(body)) return operation.permission;
  const fields = Object.keys(body);
  return fields.length > 0 && fields.every((field) => narrow.onlyFields.includes(field)) ? narrow.permission : operation.permission;
}

const UNAUTHORIZED =
  'The admin API needs the gateway admin token (GATEWAY_ADMIN_TOKEN, printed when the gateway first started) or an admin token minted with POST /api/admin/tokens, as "Authorization: Bearer <token>", or a console session (POST /api/admin/session).';

async function authenticateAdmin(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<AdminActor> {
  const token = bearerTokenOf(request);
  const cookie = token === undefined ? readSessionCookie(request, CONSOLE_SESSION_COOKIE) : undefined;
  if (cookie !== undefined) return authenticateSession(deps, request, reply, cookie);
  const address = refuseWhileBlocked(request, deps.access);
  if (token !== undefined) {
    if (bearerMatches(token, [deps.settings.adminTokenHash])) return { via: 'break-glass', name: 'break-glass', role: 'owner', adminId: null };
    const minted = await deps.store.admins.findToken(hashApiKey(token), deps.runtime.now());
    // A token dies with its maker: removing or disabling a person ends what they minted.
    const maker = minted?.createdBy ? await deps.store.admins.find(minted.createdBy) : undefined;
    if (minted && (minted.createdBy === null || maker?.enabled === true)) {
      return { via: 'token', name: `token ${minted.name}${maker ? ` (by ${maker.name})` : ''}`, role: minted.role, adminId: minted.createdBy };
    }
  }
  deps.access.adminAuthThrottle.recordFailure(address);
  throw new GatewayError('admin_unauthorized', UNAUTHORIZED);
}

async function authenticateSession(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, cookie: string): Promise<AdminActor> {
  const changesState = request.method !== 'GET' && request.method !== 'HEAD';
  if (changesState && !sameOrigin(request)) {
    throw new GatewayError('csrf_failed', 'This request came from another site; the admin API only answers the console of this gateway.');
  }
  const session = await deps.store.admins.findSession(hashSessionToken(cookie), deps.runtime.now());
  const admin = session ? await deps.store.admins.find(session.adminId) : undefined;
  if (!session || !admin || !admin.enabled || admin.id !== session.adminId) {
    if (session) await deps.store.admins.deleteSession(session.tokenHash);
    clearSessionCookie(request, reply, CONSOLE_SESSION_COOKIE);
    throw new GatewayError('admin_unauthorized', 'Your console session has ended, or your admin account was disabled or removed. Sign in again.');
  }
  if (changesState && !csrfMatches(request.headers['x-csrf-token'], session.csrfToken)) {
    throw new GatewayError('csrf_failed', 'The request lacks this session’s CSRF token (x-csrf-token). Reload the console and try again.');
  }
  await deps.store.sessionDevices.console.touch(session.tokenHash, deps.runtime.now());
  return { via: 'session', name: admin.name, role: admin.role, adminId: admin.id, session };
}
