import type { FastifyInstance } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { announcementsFor, announcementView } from '../../notify/announcements.ts';
import type { AppDeps } from '../app-deps.ts';
import { authenticateRequest } from '../authenticate-request.ts';
import { announcementSchema } from '../notification-schemas.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { recordAdminChange } from './record-admin-change.ts';

/**
 * Announcements (issue 30): the operator posts them (`/api/admin/announcements`); a key holder
 * reads the ones meant for them with the key (`GET /api/announcements`, in the OpenAI error
 * shape); the portal's list is in account-notify-routes.ts.
 */
export function registerAnnouncementRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;

  app.get('/api/announcements', async (request) => {
    const { key } = authenticateRequest(deps, request, 'anthropic');
    const groups = new Set([key.group]);
    const userId = key.userId ?? null;
    const list = announcementsFor(await store.announcements.list(deps.runtime.now()), { userId, groups });
    return { data: list.map(announcementView) };
  });

  app.register(
    async (admin) => {
      admin.get('/announcements', async () => ({ data: (await store.announcements.list()).map(announcementView) }));
      admin.post('/announcements', async (request, reply) => {
        const input = parseAdminInput(announcementSchema, request.body);
        let audience = input.audience;
        if (audience.startsWith('group:') && !deps.snapshot.current.groups.has(audience.slice(6))) {
          throw invalidRequest(`audience: group "${audience.slice(6)}" does not exist.`, 'audience');
        }
        if (audience.startsWith('account:')) {
          const user = await store.users.find(audience.slice(8));
          if (!user) throw invalidRequest(`audience: account "${audience.slice(8)}" does not exist.`, 'audience');
          audience = `account:${user.id}`;
        }
        if (input.endsAt != null && input.endsAt <= deps.runtime.now()) throw invalidRequest('endsAt: must be in the future.', 'endsAt');
        const announcement = await store.announcements.create({ title: input.title, body: input.body, audience, endsAt: input.endsAt ?? null });
        const view = announcementView(announcement);
        await recordAdminChange(deps, request, {
          action: 'announcement.create',
          targetKind: 'announcement',
          targetId: announcement.id,
          targetName: announcement.title,
          before: null,
          after: view,
        });
        return reply.code(201).send(view);
      });
      admin.delete('/announcements/:id', async (request, reply) => {
        const id = (request.params as Record<string, string>).id ?? '';
        if (!(await store.announcements.delete(id))) throw new GatewayError('not_found', `No announcement "${id}" exists.`);
        await recordAdminChange(deps, request, {
          action: 'announcement.delete',
          targetKind: 'announcement',
          targetId: id,
          targetName: id,
          before: null,
          after: null,
        });
        return reply.code(204).send();
      });
    },
    { prefix: '/api/admin' },
  );
}
