import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashApiKey } from '../../store/hash-api-key.ts';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { z } from 'zod';
import { generateApiKey } from '../../store/generate-api-key.ts';
import { keyHint } from '../../store/key-hint.ts';
import { probeChannel } from '../../relay/probe-channel.ts';
import type { KeyLimits } from '../../domain/api-key.ts';
import type { Channel, ChannelPatch } from '../../domain/channel.ts';
import { toNewChannel } from '../../domain/new-channel.ts';
import { StoreConflictError } from '../../store/store.ts';
import type { AppDeps } from '../app-deps.ts';
import { resolveChannelBaseUrl } from '../../domain/channel-address.ts';
import {
  channelCreateSchema,
  channelPatchSchema,
  channelTestSchema,
  groupCreateSchema,
  groupPatchSchema,
  keyCreateSchema,
  keyPatchSchema,
  logQuerySchema,
  priceSchema,
} from './admin-schemas.ts';
import { channelView, keyView, priceView, usdToMicros } from './admin-views.ts';
import { parseAdminInput } from './parse-admin-input.ts';

/**
 * The admin API under `/api/admin`, used by the console and the CLI. Every change reloads the
 * in-memory snapshot before answering, so the next request already sees it.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const changed = () => deps.snapshot.reload();

  app.register(
    async (admin) => {
      admin.addHook('onRequest', async (request) => requireAdmin(request, deps.settings.adminTokenHash));

      // Groups
      admin.get('/groups', async () => ({ data: await store.groups.list() }));
      admin.post('/groups', async (request, reply) => {
        const input = parseAdminInput(groupCreateSchema, request.body);
        const group = await withConflicts(() => store.groups.create(input));
        await changed();
        return reply.code(201).send(group);
      });
      admin.patch('/groups/:name', async (request) => {
        const input = parseAdminInput(groupPatchSchema, request.body);
        const group = await store.groups.update(param(request, 'name'), input);
        if (!group) throw notFound('group', param(request, 'name'));
        await changed();
        return group;
      });
      admin.delete('/groups/:name', async (request, reply) => {
        const name = param(request, 'name');
        if (name === 'default') throw new GatewayError('conflict', 'The "default" group cannot be deleted.');
        if (!(await withConflicts(() => store.groups.delete(name)))) throw notFound('group', name);
        await changed();
        return reply.code(204).send();
      });

      // Channels
      const withHealth = (channel: Channel) => channelView(channel, deps.relay.health.describe(channel));
      admin.get('/channels', async () => ({ data: (await store.channels.list()).map(withHealth) }));
      admin.get('/channels/:id', async (request) => {
        const channel = await store.channels.get(param(request, 'id'));
        if (!channel) throw notFound('channel', param(request, 'id'));
        return withHealth(channel);
      });
      admin.post('/channels/:id/test', async (request) => {
        const channel = await store.channels.get(param(request, 'id'));
        if (!channel) throw notFound('channel', param(request, 'id'));
        const { model } = parseAdminInput(channelTestSchema, request.body);
        if (model !== undefined && !channel.models.includes(model)) {
          throw invalidRequest(`model: channel "${channel.name}" does not serve "${model}"; it serves ${channel.models.join(', ')}.`, 'model');
        }
        return probeChannel(deps.relay, channel, model);
      });
      admin.post('/channels', async (request, reply) => {
        const input = parseAdminInput(channelCreateSchema, request.body);
        const desired = toNewChannel(input);
        await requireGroups(deps, desired.groups, 'groups');
        const channel = await withConflicts(() => store.channels.create(desired));
        await changed();
        return reply.code(201).send(channelView(channel));
      });
      admin.patch('/channels/:id', async (request) => {
        const input = parseAdminInput(channelPatchSchema, request.body);
        if (input.groups) await requireGroups(deps, input.groups, 'groups');
        const { apiKey, apiKeys, ...rest } = input;
        const patch: ChannelPatch = { ...rest, ...(apiKeys ? { apiKeys } : apiKey ? { apiKeys: [apiKey] } : {}) };
        if (input.region !== undefined && input.baseUrl === undefined) {
          // A region change moves a derived (default) address along with it; a custom one stays.
          const current = await store.channels.get(param(request, 'id'));
          if (current) {
            const before = resolveChannelBaseUrl({ ...current, baseUrl: undefined });
            const after = resolveChannelBaseUrl({ ...current, ...rest, baseUrl: undefined });
            if ('baseUrl' in before && before.baseUrl === current.baseUrl && 'baseUrl' in after) patch.baseUrl = after.baseUrl;
          }
        }
        const channel = await withConflicts(() => store.channels.update(param(request, 'id'), patch));
        if (!channel) throw notFound('channel', param(request, 'id'));
        await changed();
        return channelView(channel);
      });
      admin.delete('/channels/:id', async (request, reply) => {
        if (!(await store.channels.delete(param(request, 'id')))) throw notFound('channel', param(request, 'id'));
        await changed();
        return reply.code(204).send();
      });

      // Keys
      admin.get('/keys', async () => ({ data: (await store.keys.list()).map(keyView) }));
      admin.get('/keys/:id', async (request) => {
        const key = await store.keys.get(param(request, 'id'));
        if (!key) throw notFound('key', param(request, 'id'));
        return keyView(key);
      });
      admin.post('/keys', async (request, reply) => {
        const input = parseAdminInput(keyCreateSchema, request.body);
        await requireGroups(deps, [input.group], 'group');
        const secret = generateApiKey();
        const key = await withConflicts(() =>
          store.keys.create({
            name: input.name,
            group: input.group,
            keyHash: hashApiKey(secret),
            keyHint: keyHint(secret),
            expiresAt: toEpoch(input.expiresAt),
            balanceMicros: toBalance(input.balance ?? input.quota),
            allowedModels: input.allowedModels ?? null,
            allowedIps: input.allowedIps ?? null,
            enabled: input.enabled ?? true,
            limits: toLimits(input.limits),
          }),
        );
        await changed();
        // The only time the secret is shown.
        return reply.code(201).send({ ...keyView(key), key: secret });
      });
      admin.patch('/keys/:id', async (request) => {
        const input = parseAdminInput(keyPatchSchema, request.body);
        if (input.group) await requireGroups(deps, [input.group], 'group');
        const { expiresAt, balance, quota, limits, ...rest } = input;
        const patch = {
          ...rest,
          ...(expiresAt === undefined ? {} : { expiresAt: toEpoch(expiresAt) }),
          ...(balance === undefined && quota === undefined ? {} : { balanceMicros: toBalance(balance ?? quota) }),
          ...(limits === undefined ? {} : { limits: toLimits(limits) }),
        };
        // A new balance is the balance from now on: charges still queued from earlier requests
        // must reach the database first, or they would be taken off the new amount too.
        if (patch.balanceMicros !== undefined) await deps.access.charges.flush();
        const key = await withConflicts(() => store.keys.update(param(request, 'id'), patch));
        if (!key) throw notFound('key', param(request, 'id'));
        await changed();
        return keyView(key);
      });
      admin.delete('/keys/:id', async (request, reply) => {
        if (!(await store.keys.delete(param(request, 'id')))) throw notFound('key', param(request, 'id'));
        await changed();
        return reply.code(204).send();
      });

      // Prices (USD per million tokens)
      admin.get('/prices', async () => ({ data: (await store.prices.list()).map(priceView) }));
      admin.post('/prices', async (request, reply) => {
        const input = parseAdminInput(priceSchema, request.body);
        const price = await store.prices.upsert({
          model: input.model,
          inputPerMillion: usdToMicros(input.input),
          outputPerMillion: usdToMicros(input.output),
          cacheReadPerMillion: input.cacheRead == null ? null : usdToMicros(input.cacheRead),
          cacheWritePerMillion: input.cacheWrite == null ? null : usdToMicros(input.cacheWrite),
        });
        await changed();
        return reply.code(201).send(priceView(price));
      });
      admin.delete('/prices/:model', async (request, reply) => {
        if (!(await store.prices.delete(param(request, 'model')))) throw notFound('price for model', param(request, 'model'));
        await changed();
        return reply.code(204).send();
      });

      // Logs
      admin.get('/logs', async (request) => {
        await deps.usageWriter.flush();
        const query = parseAdminInput(logQuerySchema, request.query);
        const data = await store.usage.query({
          limit: query.limit ?? 100,
          ...(query.key === undefined ? {} : { keyId: query.key }),
          ...(query.group === undefined ? {} : { group: query.group }),
          ...(query.model === undefined ? {} : { model: query.model }),
          ...(query.channel === undefined ? {} : { channelId: query.channel }),
          ...(query.status === undefined ? {} : { status: query.status }),
          ...(query.from === undefined ? {} : { from: toEpoch(query.from) ?? 0 }),
          ...(query.to === undefined ? {} : { to: toEpoch(query.to) ?? 0 }),
        });
        return { data: data.map((entry) => ({ ...entry, time: new Date(entry.time).toISOString() })) };
      });
    },
    { prefix: '/api/admin' },
  );
}

export function requireAdmin(request: FastifyRequest, expectedHash: string): void {
  const header = request.headers.authorization;
  const token = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim())?.[1] : undefined;
  const given = Buffer.from(hashApiKey(token ?? ''), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  if (token === undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new GatewayError(
      'admin_unauthorized',
      'The admin API needs the gateway admin token as "Authorization: Bearer <GATEWAY_ADMIN_TOKEN>"; it was printed when the gateway first started.',
    );
  }
}

function param(request: FastifyRequest, name: string): string {
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

async function withConflicts<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof StoreConflictError) throw new GatewayError('conflict', error.message, { param: error.field });
    throw error;
  }
}

function toEpoch(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : Date.parse(value);
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
