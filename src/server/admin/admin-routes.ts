import type { AdminChannel } from './admin-api-types.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { probeChannel } from '../../relay/probe-channel.ts';
import type { Channel, ChannelPatch } from '../../domain/channel.ts';
import { toNewChannel } from '../../domain/new-channel.ts';
import { healthStatus } from '../../relay/routing/health-status.ts';
import type { AppDeps } from '../app-deps.ts';
import { channelAddressWarnings, resolveChannelBaseUrl } from '../../domain/channel-address.ts';
import { privateUpstreamProblem } from '../../upstream/private-upstream-address.ts';
import { MISCONFIGURED_HINT } from '../../relay/routing/classify-failure.ts';
import { channelCreateSchema, channelPatchSchema, channelTestSchema, groupCreateSchema, groupPatchSchema } from './admin-schemas.ts';
import { channelView } from './admin-views.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { recordAdminChange, type AdminChange } from './record-admin-change.ts';
import { findChannelByReference } from './find-by-reference.ts';
import { registerAdminLogRoutes } from './admin-log-routes.ts';
import { registerAdminKeyRoutes } from './admin-key-routes.ts';
import { registerAdminPriceRoutes } from './admin-price-routes.ts';
import { registerAdminPriceVersionRoutes } from './admin-price-version-routes.ts';
import { registerAdminLedgerRoutes } from './admin-ledger-routes.ts';
import { notFound, param, requireGroups, withConflicts } from './admin-route-helpers.ts';
import { accountDefaultGroup, setAccountDefaultGroup } from '../../accounts/account-settings.ts';

/**
 * The admin API under `/api/admin`, used by the console and the CLI. Every change reloads the
 * in-memory snapshot before answering, so the next request already sees it.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const changed = () => deps.snapshot.reload();
  const audit = (request: FastifyRequest, change: AdminChange) => recordAdminChange(deps, request, change);
  const findChannel = (reference: string) => findChannelByReference(store, reference);

  app.register(
    async (admin) => {
      // Groups
      admin.get('/groups', async () => ({ data: await store.groups.list() }));
      admin.post('/groups', async (request, reply) => {
        const input = parseAdminInput(groupCreateSchema, request.body);
        const group = await withConflicts(() => store.groups.create(input));
        await changed();
        await audit(request, { action: 'group.create', targetKind: 'group', targetId: group.name, targetName: group.name, before: null, after: group });
        return reply.code(201).send(group);
      });
      admin.patch('/groups/:name', async (request) => {
        const { name: newName, ...input } = parseAdminInput(groupPatchSchema, request.body);
        const before = await store.groups.get(param(request, 'name'));
        if (!before) throw notFound('group', param(request, 'name'));
        let name = before.name;
        if (newName !== undefined && newName !== name) {
          if (name === 'default') throw new GatewayError('conflict', 'The "default" group cannot be renamed: routing and new keys fall back to it.');
          await withConflicts(() => store.groups.rename(before.name, newName));
          // The accounts' default group is a setting that names the group: it follows the rename.
          if ((await accountDefaultGroup(store)) === before.name) await setAccountDefaultGroup(store, newName);
          name = newName;
        }
        const group = await store.groups.update(name, input);
        if (!group) throw notFound('group', param(request, 'name'));
        await changed();
        await audit(request, { action: 'group.update', targetKind: 'group', targetId: group.name, targetName: group.name, before, after: group });
        return group;
      });
      admin.delete('/groups/:name', async (request, reply) => {
        const name = param(request, 'name');
        if (name === 'default') throw new GatewayError('conflict', 'The "default" group cannot be deleted.');
        const before = await store.groups.get(name);
        if (!(await withConflicts(() => store.groups.delete(name)))) throw notFound('group', name);
        await changed();
        await audit(request, { action: 'group.delete', targetKind: 'group', targetId: name, targetName: name, before, after: null });
        return reply.code(204).send();
      });

      // Channels
      const withHealth = (channel: Channel) => {
        const view = deps.relay.health.describe(channel);
        return channelView(channel, { ...view, ...healthStatus(channel.enabled, view, deps.runtime.now(), channel.models) });
      };
      // A saved channel whose address looks wrong is kept, and the answer says what looks wrong.
      const withAddressWarnings = (channel: Channel): AdminChannel & { warnings?: string[] } => {
        const warnings = channelAddressWarnings(channel);
        return warnings.length === 0 ? channelView(channel) : { ...channelView(channel), warnings };
      };
      admin.get('/channels', async () => ({ data: (await store.channels.list()).map(withHealth) }));
      admin.get('/channels/:id', async (request) => {
        const channel = await findChannel(param(request, 'id'));
        if (!channel) throw notFound('channel', param(request, 'id'));
        return withHealth(channel);
      });
      admin.post('/channels/:id/test', async (request) => {
        const channel = await findChannel(param(request, 'id'));
        if (!channel) throw notFound('channel', param(request, 'id'));
        const { model } = parseAdminInput(channelTestSchema, request.body);
        if (model !== undefined && !channel.models.includes(model)) {
          throw invalidRequest(`model: channel "${channel.name}" does not serve "${model}"; it serves ${channel.models.join(', ')}.`, 'model');
        }
        const result = await probeChannel(deps.relay, channel, model);
        // A 404 or 405 on the gateway's own smallest request is the address or the model list.
        if (result.status === 404 || result.status === 405) {
          return { ...result, warnings: [`The upstream answered ${result.status}: ${MISCONFIGURED_HINT}.`, ...channelAddressWarnings(channel)] };
        }
        if (!result.ok) {
          deps.logger.warn(
            {
              event: 'channel_test_failed',
              channel: channel.name,
              model: result.model,
              status: result.status,
              error: result.error?.code,
              reason: result.error?.message,
            },
            `manual test of channel ${channel.name} failed: ${result.error?.code ?? result.status}`,
          );
        }
        return result;
      });
      admin.post('/channels', async (request, reply) => {
        const input = parseAdminInput(channelCreateSchema, request.body);
        const desired = toNewChannel(input);
        await requireGroups(deps, desired.groups, 'groups');
        await requirePublicAddress(deps, desired.baseUrl);
        const channel = await withConflicts(() => store.channels.create(desired));
        await changed();
        await audit(request, {
          action: 'channel.create',
          targetKind: 'channel',
          targetId: channel.id,
          targetName: channel.name,
          before: null,
          after: channelView(channel),
        });
        return reply.code(201).send(withAddressWarnings(channel));
      });
      admin.patch('/channels/:id', async (request) => {
        const input = parseAdminInput(channelPatchSchema, request.body);
        if (input.groups) await requireGroups(deps, input.groups, 'groups');
        const { apiKey, apiKeys, ...rest } = input;
        const patch: ChannelPatch = { ...rest, ...(apiKeys ? { apiKeys } : apiKey ? { apiKeys: [apiKey] } : {}) };
        const before = await findChannel(param(request, 'id'));
        if (!before) throw notFound('channel', param(request, 'id'));
        if (input.region !== undefined && input.baseUrl === undefined) {
          // A region change moves a derived (default) address along with it; a custom one stays.
          const derivedBefore = resolveChannelBaseUrl({ ...before, baseUrl: undefined });
          const derivedAfter = resolveChannelBaseUrl({ ...before, ...rest, baseUrl: undefined });
          if ('baseUrl' in derivedBefore && derivedBefore.baseUrl === before.baseUrl && 'baseUrl' in derivedAfter) patch.baseUrl = derivedAfter.baseUrl;
        }
        if (patch.baseUrl !== undefined) await requirePublicAddress(deps, patch.baseUrl);
        const channel = await withConflicts(() => store.channels.update(before.id, patch));
        if (!channel) throw notFound('channel', param(request, 'id'));
        await changed();
        await audit(request, {
          action: 'channel.update',
          targetKind: 'channel',
          targetId: channel.id,
          targetName: channel.name,
          before: channelView(before),
          after: channelView(channel),
        });
        return withAddressWarnings(channel);
      });
      admin.delete('/channels/:id', async (request, reply) => {
        const before = await findChannel(param(request, 'id'));
        if (!before || !(await store.channels.delete(before.id))) throw notFound('channel', param(request, 'id'));
        await changed();
        await audit(request, {
          action: 'channel.delete',
          targetKind: 'channel',
          targetId: before.id,
          targetName: before.name,
          before: channelView(before),
          after: null,
        });
        return reply.code(204).send();
      });

      registerAdminKeyRoutes(admin, deps);
      registerAdminPriceRoutes(admin, deps);
      registerAdminPriceVersionRoutes(admin, deps);
      registerAdminLedgerRoutes(admin, deps);
      registerAdminLogRoutes(admin, deps);
    },
    { prefix: '/api/admin' },
  );
}

/** BLOCK_PRIVATE_UPSTREAMS: a channel address that is (or resolves to) a private, loopback or link-local one is a 400. */
async function requirePublicAddress(deps: AppDeps, baseUrl: string): Promise<void> {
  if (deps.settings.blockPrivateUpstreams !== true) return;
  const problem = await privateUpstreamProblem(baseUrl);
  if (problem !== undefined) throw invalidRequest(`baseUrl: ${problem}.`, 'baseUrl');
}
