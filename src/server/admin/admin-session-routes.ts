import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.ts';
import type { SessionDeviceRepository } from '../../store/store.ts';
import type { AppDeps } from '../app-deps.ts';
import { sessionView } from '../portal/account-security-routes.ts';
import { CONSOLE_SESSION_COOKIE, clearSessionCookie } from '../session-cookie.ts';
import { actorOf } from './admin-people-routes.ts';
import { param } from './admin-route-helpers.ts';
import { recordAdminChange } from './record-admin-change.ts';

/**
 * Sessions in the console (issue 29): each person sees and ends their own console sessions
 * (`/me/sessions`); an admin sees and ends an account holder's portal sessions
 * (`/users/:id/sessions`) and an owner another admin's (`/admins/:id/sessions`).
 */
export function registerAdminSessionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const now = () => deps.runtime.now();
  const { portal, console: consoleSessions } = store.sessionDevices;

  app.register(
    async (admin) => {
      admin.get('/me/sessions', async (request) => {
        const actor = actorOf(request);
        if (actor.via !== 'session' || !actor.adminId) return { data: [] };
        return { data: (await consoleSessions.list(actor.adminId, now())).map((entry) => sessionView(entry, actor.session?.tokenHash)) };
      });
      admin.delete('/me/sessions/:sessionId', async (request, reply) => revokeOne(request, reply, consoleSessions, mySelf(request)));
      admin.delete('/me/sessions', async (request, reply) => {
        await consoleSessions.revokeAll(mySelf(request));
        clearSessionCookie(request, reply, CONSOLE_SESSION_COOKIE);
        return reply.code(204).send();
      });

      admin.get('/users/:id/sessions', async (request) => ({ data: (await portal.list(await userId(request), now())).map((entry) => sessionView(entry)) }));
      admin.delete('/users/:id/sessions/:sessionId', async (request, reply) => revokeOne(request, reply, portal, await userId(request)));
      admin.delete('/users/:id/sessions', async (request, reply) => {
        const id = await userId(request);
        const ended = await portal.revokeAll(id);
        await recordAdminChange(deps, request, {
          action: 'user.sessions.revoke',
          targetKind: 'user',
          targetId: id,
          targetName: null,
          before: { sessions: ended },
          after: { sessions: 0 },
        });
        return reply.code(204).send();
      });

      admin.get('/admins/:id/sessions', async (request) => ({
        data: (await consoleSessions.list(await adminId(request), now())).map((entry) => sessionView(entry)),
      }));
      admin.delete('/admins/:id/sessions', async (request, reply) => {
        const id = await adminId(request);
        const ended = await consoleSessions.revokeAll(id);
        await recordAdminChange(deps, request, {
          action: 'admin.sessions.revoke',
          targetKind: 'admin',
          targetId: id,
          targetName: null,
          before: { sessions: ended },
          after: { sessions: 0 },
        });
        return reply.code(204).send();
      });
    },
    { prefix: '/api/admin' },
  );

  async function revokeOne(request: FastifyRequest, reply: FastifyReply, sessions: SessionDeviceRepository, ownerId: string) {
    const sessionId = param(request, 'sessionId');
    if (!(await sessions.revoke(ownerId, sessionId))) throw new GatewayError('not_found', `No session "${sessionId}" of that person exists.`);
    return reply.code(204).send();
  }
  async function userId(request: FastifyRequest): Promise<string> {
    const user = await store.users.find(param(request, 'id'));
    if (!user) throw new GatewayError('not_found', `No user "${param(request, 'id')}" exists.`);
    return user.id;
  }
  async function adminId(request: FastifyRequest): Promise<string> {
    const person = await store.admins.find(param(request, 'id'));
    if (!person) throw new GatewayError('not_found', `No admin "${param(request, 'id')}" exists.`);
    return person.id;
  }
}

function mySelf(request: FastifyRequest): string {
  const actor = actorOf(request);
  if (actor.via !== 'session' || !actor.adminId)
    throw new GatewayError('invalid_request', 'Sessions belong to a person signed in to the console, not to a token.');
  return actor.adminId;
}
