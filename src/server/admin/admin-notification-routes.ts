import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { NOTIFICATION_EVENTS, type NotificationChannel } from '../../domain/notification.ts';
import { generateWebhookSecret, sendTestNotification } from '../../notify/channel-test.ts';
import { EVENT_DEFAULTS } from '../../notify/event-defaults.ts';
import { storedThreshold, thresholdProblem, wireThreshold } from '../../notify/rule-threshold.ts';
import type { AppDeps } from '../app-deps.ts';
import { deliveryQuerySchema, notificationChannelSchema, notificationRuleSchema } from '../notification-schemas.ts';
import { deliveryView, notificationChannelView, notificationRuleView } from '../notification-views.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { recordAdminChange } from './record-admin-change.ts';

/**
 * The operator's alerts (issue 30): channels (`/api/admin/notification-channels`, with a test
 * send), rules (`/api/admin/notification-rules`), the events with their default thresholds, and
 * the outbox (`/api/admin/notification-deliveries`: the dead-letter list and its retry).
 */
export function registerAdminNotificationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const idOf = (request: FastifyRequest) => (request.params as Record<string, string>).id ?? '';

  app.register(
    async (admin) => {
      admin.get('/notification-events', async () => ({
        data: NOTIFICATION_EVENTS.map((event) => {
          const defaults = EVENT_DEFAULTS[event];
          return {
            event,
            unit: defaults.unit,
            defaultThreshold: wireThreshold(event, defaults.threshold),
            defaultWindowSeconds: defaults.windowSeconds,
            repeatSeconds: defaults.repeatMs / 1000,
          };
        }),
      }));

      admin.get('/notification-channels', async () => ({ data: (await store.notifications.listChannels(null)).map(notificationChannelView) }));
      admin.post('/notification-channels', async (request, reply) => {
        const input = parseAdminInput(notificationChannelSchema, request.body);
        // A webhook without a secret gets one, shown in this answer only: receivers must be able to check the signature.
        const generated = input.type === 'webhook' && input.secret === undefined ? generateWebhookSecret() : undefined;
        const channel = await store.notifications.createChannel({
          ownerUserId: null,
          type: input.type,
          name: input.name,
          url: input.url ?? null,
          secret: input.secret ?? generated ?? null,
          to: input.to ?? null,
          roles: [...new Set(input.roles ?? [])],
        });
        const view = notificationChannelView(channel);
        await recordAdminChange(deps, request, {
          action: 'notification-channel.create',
          targetKind: 'notification-channel',
          targetId: channel.id,
          targetName: channel.name,
          before: null,
          after: view,
        });
        return reply.code(201).send(generated === undefined ? view : { ...view, secret: generated });
      });
      admin.delete('/notification-channels/:id', async (request, reply) => {
        const channel = await operatorChannel(idOf(request));
        await store.notifications.deleteChannel(channel.id);
        await recordAdminChange(deps, request, {
          action: 'notification-channel.delete',
          targetKind: 'notification-channel',
          targetId: channel.id,
          targetName: channel.name,
          before: notificationChannelView(channel),
          after: null,
        });
        return reply.code(204).send();
      });
      admin.post('/notification-channels/:id/test', async (request) => {
        const channel = await operatorChannel(idOf(request));
        return sendTestNotification(services().send, channel, deps.runtime.now());
      });

      admin.get('/notification-rules', async () => ({ data: (await store.notifications.listRules(null)).map(notificationRuleView) }));
      admin.post('/notification-rules', async (request, reply) => {
        const input = parseAdminInput(notificationRuleSchema, request.body);
        const problem = thresholdProblem(input.event, input.threshold);
        if (problem) throw invalidRequest(`threshold: ${problem}.`, 'threshold');
        const known = new Set((await store.notifications.listChannels(null)).map((channel) => channel.id));
        const missing = input.channels.find((id) => !known.has(id));
        if (missing !== undefined) throw invalidRequest(`channels: no notification channel "${missing}" exists.`, 'channels');
        const rule = await store.notifications.createRule({
          ownerUserId: null,
          event: input.event,
          threshold: storedThreshold(input.event, input.threshold),
          windowSeconds: input.windowSeconds ?? null,
          channels: [...new Set(input.channels)],
          audience: input.audience,
          enabled: input.enabled,
        });
        await services().notifier.reloadRules();
        const view = notificationRuleView(rule);
        await recordAdminChange(deps, request, {
          action: 'notification-rule.create',
          targetKind: 'notification-rule',
          targetId: rule.id,
          targetName: rule.event,
          before: null,
          after: view,
        });
        return reply.code(201).send(view);
      });
      admin.delete('/notification-rules/:id', async (request, reply) => {
        const rule = (await store.notifications.listRules(null)).find((candidate) => candidate.id === idOf(request));
        if (!rule) throw new GatewayError('not_found', `No notification rule "${idOf(request)}" exists.`);
        await store.notifications.deleteRule(rule.id);
        await services().notifier.reloadRules();
        await recordAdminChange(deps, request, {
          action: 'notification-rule.delete',
          targetKind: 'notification-rule',
          targetId: rule.id,
          targetName: rule.event,
          before: notificationRuleView(rule),
          after: null,
        });
        return reply.code(204).send();
      });

      admin.get('/notification-deliveries', async (request) => {
        const query = parseAdminInput(deliveryQuerySchema, request.query);
        return { data: (await store.outbox.list({ ...(query.status ? { status: query.status } : {}), limit: query.limit })).map(deliveryView) };
      });
      admin.post('/notification-deliveries/:id/retry', async (request) => {
        if (!(await store.outbox.revive(idOf(request), deps.runtime.now()))) {
          throw new GatewayError('not_found', `No dead-lettered notification "${idOf(request)}" exists.`);
        }
        services().dispatcher.kick();
        const delivery = await store.outbox.get(idOf(request));
        return delivery ? deliveryView(delivery) : {};
      });
    },
    { prefix: '/api/admin' },
  );

  async function operatorChannel(id: string): Promise<NotificationChannel> {
    const channel = await store.notifications.getChannel(id);
    if (!channel || channel.ownerUserId !== null) throw new GatewayError('not_found', `No notification channel "${id}" exists.`);
    return channel;
  }

  function services() {
    if (!deps.notifications) throw new GatewayError('internal_error', 'Notifications are not running in this process.');
    return deps.notifications;
  }
}
