import type { AdminChannel } from '../admin-api-types.ts';
import { priceFromUsd } from '../../ledger/price-input.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashApiKey } from '../../store/hash-api-key.ts';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { z } from 'zod';
import { generateApiKey } from '../../store/generate-api-key.ts';
import { keyHint } from '../../store/key-hint.ts';
import { probeChannel } from '../../relay/probe-channel.ts';
import type { ApiKey, KeyLimits } from '../../domain/api-key.ts';
import type { Channel, ChannelPatch } from '../../domain/channel.ts';
import { toNewChannel } from '../../domain/new-channel.ts';
import { StoreConflictError } from '../../store/store.ts';
import { healthStatus } from '../../routing/health-status.ts';
import type { AppDeps } from '../app-deps.ts';
import { channelAddressWarnings, resolveChannelBaseUrl } from '../../domain/channel-address.ts';
import { privateUpstreamProblem } from '../../upstream/private-upstream-address.ts';
import { MISCONFIGURED_HINT } from '../../routing/classify-failure.ts';
import {
  channelCreateSchema,
  channelPatchSchema,
  channelTestSchema,
  groupCreateSchema,
  groupPatchSchema,
  keyCreateSchema,
  keyPatchSchema,
  priceSchema,
} from './admin-schemas.ts';
import { channelView, keyListingView, keyView, priceView } from './admin-views.ts';
import { usdToMicros } from '../../domain/money.ts';
import { parseAdminInput } from './parse-admin-input.ts';
import { recordAdminChange, type AdminChange } from './record-admin-change.ts';
import { findChannelByReference, findKeyByReference } from './find-by-reference.ts';
import { registerAdminLogRoutes } from './admin-log-routes.ts';
import { registerAdminPriceRoutes } from './admin-price-routes.ts';
import { registerAdminLedgerRoutes } from './admin-ledger-routes.ts';
import { accountDefaultGroup, setAccountDefaultGroup } from './account-settings.ts';
import { diagnoseKey } from './diagnose-key.ts';

/**
 * The admin API under `/api/admin`, used by the console and the CLI. Every change reloads the
 * in-memory snapshot before answering, so the next request already sees it.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const changed = () => deps.snapshot.reload();
  const audit = (request: FastifyRequest, change: AdminChange) => recordAdminChange(deps, request, change);
  const findChannel = (reference: string) => findChannelByReference(store, reference);
  const findKey = (reference: string) => findKeyByReference(store, reference);

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
            { event: 'channel_test_failed', channel: channel.name, model: result.model, status: result.status, error: result.error?.code, reason: result.error?.message },
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
        await audit(request, { action: 'channel.create', targetKind: 'channel', targetId: channel.id, targetName: channel.name, before: null, after: channelView(channel) });
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
        await audit(request, { action: 'channel.update', targetKind: 'channel', targetId: channel.id, targetName: channel.name, before: channelView(before), after: channelView(channel) });
        return withAddressWarnings(channel);
      });
      admin.delete('/channels/:id', async (request, reply) => {
        const before = await findChannel(param(request, 'id'));
        if (!before || !(await store.channels.delete(before.id))) throw notFound('channel', param(request, 'id'));
        await changed();
        await audit(request, { action: 'channel.delete', targetKind: 'channel', targetId: before.id, targetName: before.name, before: channelView(before), after: null });
        return reply.code(204).send();
      });

      // Keys
      const listed = (key: ApiKey) => keyListingView(key, deps.snapshot.current, deps.runtime.now());
      admin.get('/keys', async () => ({ data: (await store.keys.list()).map(listed) }));
      admin.get('/keys/:id', async (request) => {
        const key = await findKey(param(request, 'id'));
        if (!key) throw notFound('key', param(request, 'id'));
        return listed(key);
      });
      // The model check of one key, the same six checks the key holder, the CLI and the portal get
      // (the console's check runs here, not in the browser). The operator sees every group.
      admin.get('/keys/:id/diagnose', async (request) => {
        const key = await findKey(param(request, 'id'));
        if (!key) throw notFound('key', param(request, 'id'));
        const snapshot = deps.snapshot.current;
        const current = snapshot.keysByHash.get(key.keyHash) ?? key;
        const group = snapshot.groups.get(current.group);
        if (!group) throw invalidRequest(`The key's group "${current.group}" no longer exists; bind the key to another group.`, 'id');
        return diagnoseKey(deps, request, { key: current, group }, { revealOtherGroups: true });
      });
      admin.post('/keys', async (request, reply) => {
        const input = parseAdminInput(keyCreateSchema, request.body);
        await requireGroups(deps, [input.group], 'group');
        const userId = await resolveUser(deps, input.user);
        const secret = generateApiKey();
        const key = await withConflicts(() =>
          store.keys.create({
            name: input.name,
            group: input.group,
            keyHash: hashApiKey(secret),
            keyHint: keyHint(secret),
            expiresAt: input.expiresAt ?? null,
            balanceMicros: toBalance(input.balance ?? input.quota),
            allowedModels: input.allowedModels ?? null,
            allowedIps: input.allowedIps ?? null,
            enabled: input.enabled ?? true,
            limits: toLimits(input.limits),
            userId: userId ?? null,
          }),
        );
        await changed();
        await audit(request, { action: 'key.create', targetKind: 'key', targetId: key.id, targetName: key.name, before: null, after: keyView(key) });
        // A key created already expired is kept (tests and imports make such keys on purpose), but
        // the answer says so: a mistyped year would otherwise hand out a key that never works.
        const warnings =
          key.expiresAt !== null && key.expiresAt <= deps.runtime.now()
            ? [`expiresAt ${new Date(key.expiresAt).toISOString()} is in the past: every request with this key is refused (403 key_expired) until expiresAt is moved.`]
            : [];
        // The only time the secret is shown.
        return reply.code(201).send({ ...listed(key), key: secret, ...(warnings.length > 0 ? { warnings } : {}) });
      });
      admin.patch('/keys/:id', async (request) => {
        const input = parseAdminInput(keyPatchSchema, request.body);
        if (input.group) await requireGroups(deps, [input.group], 'group');
        const { expiresAt, balance, quota, limits, user, ...rest } = input;
        const userId = await resolveUser(deps, user);
        const patch = {
          ...rest,
          ...(userId === undefined ? {} : { userId }),
          ...(expiresAt === undefined ? {} : { expiresAt }),
          ...(balance === undefined && quota === undefined ? {} : { balanceMicros: toBalance(balance ?? quota) }),
          ...(limits === undefined ? {} : { limits: toLimits(limits) }),
        };
        // A new balance is the balance from now on: charges still queued from earlier requests
        // must reach the database first, or they would be taken off the new amount too.
        if (patch.balanceMicros !== undefined) await deps.access.charges.flush();
        const before = await findKey(param(request, 'id'));
        if (!before) throw notFound('key', param(request, 'id'));
        const key = await withConflicts(() => store.keys.update(before.id, patch));
        if (!key) throw notFound('key', param(request, 'id'));
        if (before.balanceMicros === null && key.balanceMicros !== null) await deps.access.balances.resetAccount(key.id);
        await changed();
        await audit(request, { action: 'key.update', targetKind: 'key', targetId: key.id, targetName: key.name, before: keyView(before), after: keyView(key) });
        return listed(key);
      });
      admin.delete('/keys/:id', async (request, reply) => {
        const before = await findKey(param(request, 'id'));
        if (!before || !(await store.keys.delete(before.id))) throw notFound('key', param(request, 'id'));
        await changed();
        await audit(request, { action: 'key.delete', targetKind: 'key', targetId: before.id, targetName: before.name, before: keyView(before), after: null });
        return reply.code(204).send();
      });

      // Prices (USD per million tokens)
      admin.get('/prices', async () => ({ data: (await store.prices.list()).map(priceView) }));
      admin.post('/prices', async (request, reply) => {
        const input = parseAdminInput(priceSchema, request.body);
        const previous = (await store.prices.list()).find((price) => price.model === input.model);
        const { model, effectiveFrom, ...figures } = input;
        const price = await store.prices.upsert(priceFromUsd(model, figures), { source: 'admin', ...(effectiveFrom === undefined ? {} : { effectiveFrom }) });
        await changed();
        await audit(request, { action: previous ? 'price.update' : 'price.create', targetKind: 'price', targetId: price.model, targetName: price.model, before: previous ? priceView(previous) : null, after: priceView(price) });
        return reply.code(201).send(priceView(price));
      });
      admin.delete('/prices/:model', async (request, reply) => {
        const model = param(request, 'model');
        const previous = (await store.prices.list()).find((price) => price.model === model);
        if (!(await store.prices.delete(model))) throw notFound('price for model', model);
        await changed();
        await audit(request, { action: 'price.delete', targetKind: 'price', targetId: model, targetName: model, before: previous ? priceView(previous) : null, after: null });
        return reply.code(204).send();
      });

      registerAdminLogRoutes(admin, deps);
      registerAdminPriceRoutes(admin, deps);
      registerAdminLedgerRoutes(admin, deps);
    },
    { prefix: '/api/admin' },
  );
}

export function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name] ?? '';
}

function notFound(kind: string, id: string): GatewayError {
  return new GatewayError('not_found', `No ${kind} "${id}" exists.`);
}

async function requireGroups(deps: AppDeps, groups: string[], field: 'group' | 'groups'): Promise<void> {
  for (const group of groups) {
    if (!(await deps.store.groups.get(group))) {
      throw invalidRequest(`${field}: group "${group}" does not exist; create it first with POST /api/admin/groups.`, field);
    }
  }
}

/** A key's `user` (id or name) as a user id; null detaches, undefined leaves it alone. */
async function resolveUser(deps: AppDeps, user: string | null | undefined): Promise<string | null | undefined> {
  if (user === undefined || user === null) return user;
  const found = await deps.store.users.find(user);
  if (!found) throw invalidRequest(`user: no user "${user}" exists; create it first with POST /api/admin/users.`, 'user');
  return found.id;
}

/** Runs a store change, turning a StoreConflictError into a 409 naming the field. */
export async function withConflicts<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof StoreConflictError) throw new GatewayError('conflict', error.message, { param: error.field });
    throw error;
  }
}


function toBalance(usd: number | null | undefined): number | null {
  return usd === null || usd === undefined ? null : usdToMicros(usd);
}

function toLimits(input: z.infer<typeof keyCreateSchema>['limits']): KeyLimits {
  if (!input) return {};
  return {
    ...(input.requestsPerMinute === undefined ? {} : { requestsPerMinute: input.requestsPerMinute }),
    ...(input.tokensPerMinute === undefined ? {} : { tokensPerMinute: input.tokensPerMinute }),
    ...(input.concurrentRequests === undefined ? {} : { concurrentRequests: input.concurrentRequests }),
    ...(input.dailySpend === undefined ? {} : { dailySpendMicros: usdToMicros(input.dailySpend) }),
    ...(input.weeklySpend === undefined ? {} : { weeklySpendMicros: usdToMicros(input.weeklySpend) }),
    ...(input.monthlySpend === undefined ? {} : { monthlySpendMicros: usdToMicros(input.monthlySpend) }),
  };
}

/** BLOCK_PRIVATE_UPSTREAMS: a channel address that is (or resolves to) a private, loopback or link-local one is a 400. */
async function requirePublicAddress(deps: AppDeps, baseUrl: string): Promise<void> {
  if (deps.settings.blockPrivateUpstreams !== true) return;
  const problem = await privateUpstreamProblem(baseUrl);
  if (problem !== undefined) throw invalidRequest(`baseUrl: ${problem}.`, 'baseUrl');
}
