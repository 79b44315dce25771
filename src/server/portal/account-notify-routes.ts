import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { User } from '../../domain/user.ts';
import { announcementsFor, announcementView } from '../../notify/announcements.ts';
import { sendTestNotification } from '../../notify/channel-test.ts';
import { ACCOUNT_EVENTS, storedThreshold, thresholdProblem } from '../../notify/rule-threshold.ts';
import type { AppDeps } from '../app-deps.ts';
import { notificationChannelSchema, notificationRuleSchema } from '../notification-schemas.ts';
import { notificationChannelView, notificationRuleView } from '../notification-views.ts';
import { parseAdminInput } from '../parse-admin-input.ts';

const MAX_CHANNELS_PER_ACCOUNT = 10;
const MAX_RULES_PER_ACCOUNT = 20;

/**
 * The account holder's side of issue 30, inside the portal's `/api/account` (session and CSRF
 * checked by account-routes.ts): the announcements meant for them, and their own alert channels
 * and rules, which hear only about their own account. Their e-mail channel writes to the address
 * on their account, never to one they type (the gateway must not mail strangers for a tenant).
 */
export function registerAccountNotifyRoutes(account: FastifyInstance, deps: AppDeps, signedIn: (request: FastifyRequest) => User): void {
  const { store } = deps;
  const idOf = (request: FastifyRequest) => (request.params as Record<string, string>).id ?? '';

  account.get('/announcements', async (request) => {
    const user = signedIn(request);
    const groups = new Set<string>();
    for (const key of await store.keys.list()) if (key.userId === user.id) groups.add(key.group);
    for (const subscription of deps.snapshot.current.subscriptionsByUser.get(user.id) ?? []) {
      const plan = deps.snapshot.current.plans.get(subscription.planId);
      if (plan) groups.add(plan.group);
    }
    const list = announcementsFor(await store.announcements.list(deps.runtime.now()), { userId: user.id, groups });
    return { data: list.map(announcementView) };
  });

  account.get('/notification-channels', async (request) => ({
    data: (await store.notifications.listChannels(signedIn(request).id)).map(notificationChannelView),
  }));
  account.post('/notification-channels', async (request, reply) => {
    const user = signedIn(request);
    const input = parseAdminInput(notificationChannelSchema, request.body);
    // An account holder must not be able to mail the operator's staff: roles are the operator's to use.
    if (input.roles !== undefined) throw invalidRequest('roles: only the operator addresses alerts to admin roles.', 'roles');
    if (input.type === 'email' && !user.email) throw invalidRequest('type: your account has no e-mail address; ask the operator to add one.', 'type');
    if ((await store.notifications.listChannels(user.id)).length >= MAX_CHANNELS_PER_ACCOUNT) {
      throw invalidRequest(`An account may have at most ${MAX_CHANNELS_PER_ACCOUNT} alert channels; remove one first.`);
    }
    const channel = await store.notifications.createChannel({
      ownerUserId: user.id,
      type: input.type,
      name: input.name,
      url: input.url ?? null,
      secret: input.secret ?? null,
      to: input.type === 'email' ? user.email : (input.to ?? null),
    });
    return reply.code(201).send(notificationChannelView(channel));
  });
  account.delete('/notification-channels/:id', async (request, reply) => {
    const user = signedIn(request);
    const channel = await store.notifications.getChannel(idOf(request));
    if (!channel || channel.ownerUserId !== user.id) throw new GatewayError('not_found', `You have no alert channel "${idOf(request)}".`);
    await store.notifications.deleteChannel(channel.id);
    return reply.code(204).send();
  });
  account.post('/notification-channels/:id/test', async (request) => {
    const user = signedIn(request);
    const channel = await store.notifications.getChannel(idOf(request));
    if (!channel || channel.ownerUserId !== user.id) throw new GatewayError('not_found', `You have no alert channel "${idOf(request)}".`);
    if (!deps.notifications) throw new GatewayError('internal_error', 'Notifications are not running in this process.');
    return sendTestNotification(deps.notifications.send, channel, deps.runtime.now());
  });

  account.get('/notification-rules', async (request) => ({ data: (await store.notifications.listRules(signedIn(request).id)).map(notificationRuleView) }));
  account.post('/notification-rules', async (request, reply) => {
    const user = signedIn(request);
    const input = parseAdminInput(notificationRuleSchema, request.body);
    if (!ACCOUNT_EVENTS.includes(input.event)) throw invalidRequest(`event: an account may choose ${ACCOUNT_EVENTS.join(', ')}.`, 'event');
    const problem = thresholdProblem(input.event, input.threshold);
    if (problem) throw invalidRequest(`threshold: ${problem}.`, 'threshold');
    const mine = new Set((await store.notifications.listChannels(user.id)).map((channel) => channel.id));
    const missing = input.channels.find((id) => !mine.has(id));
    if (missing !== undefined) throw invalidRequest(`channels: you have no alert channel "${missing}".`, 'channels');
    if ((await store.notifications.listRules(user.id)).length >= MAX_RULES_PER_ACCOUNT) {
      throw invalidRequest(`An account may have at most ${MAX_RULES_PER_ACCOUNT} alert rules; remove one first.`);
    }
    const rule = await store.notifications.createRule({
      ownerUserId: user.id,
      event: input.event,
      threshold: storedThreshold(input.event, input.threshold),
      windowSeconds: input.windowSeconds ?? null,
      channels: [...new Set(input.channels)],
      audience: 'account',
      enabled: input.enabled,
    });
    await deps.notifications?.notifier.reloadRules();
    return reply.code(201).send(notificationRuleView(rule));
  });
  account.delete('/notification-rules/:id', async (request, reply) => {
    const user = signedIn(request);
    const rule = (await store.notifications.listRules(user.id)).find((candidate) => candidate.id === idOf(request));
    if (!rule) throw new GatewayError('not_found', `You have no alert rule "${idOf(request)}".`);
    await store.notifications.deleteRule(rule.id);
    await deps.notifications?.notifier.reloadRules();
    return reply.code(204).send();
  });
}
