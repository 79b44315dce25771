import type { FastifyInstance, FastifyRequest } from 'fastify';
import { roleCovers } from '../../access/admin-permissions.ts';
import { hashPassword } from '../../access/hash-password.ts';
import { SignInThrottle } from '../../accounts/sign-in-throttle.ts';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { Admin, AdminToken } from '../../domain/admin.ts';
import { hashApiKey } from '../../access/hash-api-key.ts';
import { randomBase62 } from '../../store/random-base62.ts';
import type { AppDeps } from '../app-deps.ts';
import { requireJson } from '../require-json.ts';
import { param, withConflicts } from './admin-route-helpers.ts';
import { clearSessionCookie, CONSOLE_SESSION_COOKIE, sameOrigin } from '../session-cookie.ts';
import { openConsoleSession } from './open-console-session.ts';
import { clientIpOf } from '../authenticate-request.ts';
import { requirePasswordSignIn } from '../../identity/second-factor.ts';
import { TotpFactors } from '../../identity/totp-factors.ts';
import type { AdminActor } from './authorize-admin.ts';
import { adminCreateSchema, adminPatchSchema, adminSignInSchema, adminTokenCreateSchema } from './admin-people-schemas.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { recordAdminChange } from './record-admin-change.ts';

/** Minted tokens live at most a year: automation that needs longer mints again, so a leaked token cannot live forever. */
const MAX_TOKEN_LIFETIME_MS = 366 * 86_400_000;

/**
 * The people of the console (issue 29): operator accounts with roles, their console sessions
 * and the scoped, expiring tokens they mint. Who may call what is decided before these handlers
 * run, by `authorize-admin.ts` and the permission table; these handlers add the rules a table
 * cannot say (the last owner stays; no one mints a token that holds more than they do).
 */
export function registerAdminPeopleRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const now = () => deps.runtime.now();
  const throttle = new SignInThrottle(deps.access.kv, now, undefined, 'admin-signin');

  app.register(
    async (admin) => {
      admin.post('/session', async (request, reply) => {
        requireJson(request);
        if (!sameOrigin(request)) throw new GatewayError('csrf_failed', 'This sign-in came from another site; sign in on this gateway’s console.');
        const input = parseAdminInput(adminSignInSchema, request.body);
        const address = clientIpOf(deps, request);
        const person = await throttle.checkPassword({
          address,
          login: input.login,
          password: input.password,
          find: (login) => store.admins.find(login),
          mismatch: 'That name or e-mail and password do not match an enabled admin.',
          throttled: (seconds) => `Too many failed admin sign-ins for this admin or from this address; try again in ${seconds} seconds.`,
          // "OIDC only" closes passwords for every person; GATEWAY_ADMIN_TOKEN stays the way in if a provider breaks.
          afterPassword: (admin, attempt) => requirePasswordSignIn(store, now, { kind: 'admin', id: admin.id }, input.totp, attempt),
        });
        const { csrfToken, expiresAt } = await openConsoleSession(deps, request, reply, person);
        return { admin: adminView(person), csrfToken, sessionExpiresAt: new Date(expiresAt).toISOString() };
      });

      admin.delete('/session', async (request, reply) => {
        const session = actorOf(request).session;
        if (session) await store.admins.deleteSession(session.tokenHash);
        clearSessionCookie(request, reply, CONSOLE_SESSION_COOKIE);
        return reply.code(204).send();
      });

      admin.get('/me', async (request) => {
        const actor = actorOf(request);
        const person = actor.adminId ? await store.admins.find(actor.adminId) : undefined;
        return {
          name: actor.name,
          role: actor.role,
          via: actor.via,
          admin: actor.via === 'session' && person ? adminView(person) : null,
          // Whether this person's sign-in asks for a TOTP code: the Security page offers to enrol or turn it off.
          twoFactor: person ? await new TotpFactors(store.identity, now).isOn({ kind: 'admin', id: person.id }) : false,
          csrfToken: actor.session?.csrfToken ?? null,
          sessionExpiresAt: actor.session ? new Date(actor.session.expiresAt).toISOString() : null,
        };
      });

      admin.get('/admins', async () => ({ data: (await store.admins.list()).map(adminView) }));
      admin.get('/admins/:id', async (request) => adminView(await findAdmin(param(request, 'id'))));
      admin.post('/admins', async (request, reply) => {
        const input = parseAdminInput(adminCreateSchema, request.body);
        const created = await withConflicts(async () =>
          store.admins.create({ name: input.name, email: input.email, role: input.role, passwordHash: await hashPassword(input.password) }),
        );
        await recordAdminChange(deps, request, {
          action: 'admin.create',
          targetKind: 'admin',
          targetId: created.id,
          targetName: created.name,
          before: null,
          after: adminView(created),
        });
        return reply.code(201).send(adminView(created));
      });
      admin.patch('/admins/:id', async (request) => {
        const input = parseAdminInput(adminPatchSchema, request.body);
        const before = await findAdmin(param(request, 'id'));
        const losesOwner = before.role === 'owner' && before.enabled && ((input.role !== undefined && input.role !== 'owner') || input.enabled === false);
        if (losesOwner && (await store.admins.countEnabledOwners()) <= 1) throw lastOwner();
        const { password: newPassword, ...rest } = input;
        const after = await withConflicts(async () =>
          store.admins.update(before.id, { ...rest, ...(newPassword === undefined ? {} : { passwordHash: await hashPassword(newPassword) }) }),
        );
        if (!after) throw notFound(before.id);
        // A new password, a changed role or a disabled account ends every console session of that person.
        if (newPassword !== undefined || after.role !== before.role || !after.enabled) await store.admins.deleteSessionsOf(after.id);
        await recordAdminChange(deps, request, {
          action: 'admin.update',
          targetKind: 'admin',
          targetId: after.id,
          targetName: after.name,
          before: adminView(before),
          after: adminView(after),
        });
        return adminView(after);
      });
      admin.delete('/admins/:id', async (request, reply) => {
        const before = await findAdmin(param(request, 'id'));
        if (before.role === 'owner' && before.enabled && (await store.admins.countEnabledOwners()) <= 1) throw lastOwner();
        await store.admins.delete(before.id);
        await recordAdminChange(deps, request, {
          action: 'admin.delete',
          targetKind: 'admin',
          targetId: before.id,
          targetName: before.name,
          before: adminView(before),
          after: null,
        });
        return reply.code(204).send();
      });

      admin.get('/tokens', async () => ({ data: (await store.admins.listTokens()).map(tokenView) }));
      admin.post('/tokens', async (request, reply) => {
        const actor = actorOf(request);
        const input = parseAdminInput(adminTokenCreateSchema, request.body);
        if (!roleCovers(actor.role, input.role)) {
          throw new GatewayError(
            'insufficient_role',
            `Your role (${actor.role}) cannot mint a token with the role "${input.role}": a token never holds more than its maker.`,
          );
        }
        if (input.expiresAt <= now() || input.expiresAt > now() + MAX_TOKEN_LIFETIME_MS) {
          throw invalidRequest('expiresAt: must be in the future and at most 366 days away; mint a new token when it ends.', 'expiresAt');
        }
        const token = `syt-${randomBase62(40)}`;
        const minted = await store.admins.createToken({
          name: input.name,
          role: input.role,
          tokenHash: hashApiKey(token),
          createdBy: actor.adminId,
          expiresAt: input.expiresAt,
        });
        await recordAdminChange(deps, request, {
          action: 'admin-token.create',
          targetKind: 'admin-token',
          targetId: minted.id,
          targetName: minted.name,
          before: null,
          after: tokenView(minted),
        });
        // The token is in this answer only: the store keeps its SHA-256.
        return reply.code(201).send({ ...tokenView(minted), token });
      });
      admin.delete('/tokens/:id', async (request, reply) => {
        const before = (await store.admins.listTokens()).find((token) => token.id === param(request, 'id'));
        if (!before || !(await store.admins.deleteToken(before.id))) throw new GatewayError('not_found', `No admin token "${param(request, 'id')}" exists.`);
        await recordAdminChange(deps, request, {
          action: 'admin-token.delete',
          targetKind: 'admin-token',
          targetId: before.id,
          targetName: before.name,
          before: tokenView(before),
          after: null,
        });
        return reply.code(204).send();
      });
    },
    { prefix: '/api/admin' },
  );

  async function findAdmin(reference: string): Promise<Admin> {
    const found = await store.admins.find(reference);
    if (!found) throw notFound(reference);
    return found;
  }
}

/** What the API shows of an admin: never the password hash. */
export function adminView(admin: Admin) {
  return {
    id: admin.id,
    name: admin.name,
    email: admin.email,
    role: admin.role,
    enabled: admin.enabled,
    createdAt: new Date(admin.createdAt).toISOString(),
    updatedAt: new Date(admin.updatedAt).toISOString(),
  };
}

/** What the API shows of a minted token: never the token or its hash. */
function tokenView(token: AdminToken) {
  return {
    id: token.id,
    name: token.name,
    role: token.role,
    createdBy: token.createdBy,
    createdAt: new Date(token.createdAt).toISOString(),
    expiresAt: new Date(token.expiresAt).toISOString(),
  };
}

export function actorOf(request: FastifyRequest): AdminActor {
  const actor = request.adminActor;
  if (!actor) throw new GatewayError('admin_unauthorized', 'Sign in to the console or send an admin token.');
  return actor;
}

function notFound(reference: string): GatewayError {
  return new GatewayError('not_found', `No admin "${reference}" exists.`);
}

function lastOwner(): GatewayError {
  return new GatewayError('conflict', 'This is the last enabled owner: make another admin an owner first, so someone can still manage the admins.');
}
