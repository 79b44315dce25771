import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { ApiKey, KeyLimits } from '../../domain/api-key.ts';
import { usdToMicros } from '../../domain/money.ts';
import { generateApiKey } from '../../store/generate-api-key.ts';
import { hashApiKey } from '../../access/hash-api-key.ts';
import { keyHint } from '../../store/key-hint.ts';
import type { AppDeps } from '../app-deps.ts';
import { diagnoseKey } from '../diagnose-key.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { notFound, param, requireGroups, withConflicts } from './admin-route-helpers.ts';
import { keyCreateSchema, keyPatchSchema } from './admin-schemas.ts';
import { keyListingView, keyView } from './admin-views.ts';
import { findKeyByReference } from './find-by-reference.ts';
import { recordAdminChange, type AdminChange } from './record-admin-change.ts';

/** The admin API's keys: list, show, the model check, create (the secret shown once), change, delete. */
export function registerAdminKeyRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const changed = () => deps.snapshot.reload();
  const audit = (request: FastifyRequest, change: AdminChange) => recordAdminChange(deps, request, change);
  const findKey = (reference: string) => findKeyByReference(store, reference);

  // The live figure beside the settled one, as wallets show it (one kv read per key with a balance).
  const listed = async (key: ApiKey) => keyListingView(key, deps.snapshot.current, deps.runtime.now(), await deps.access.balances.available(key));
  admin.get('/keys', async () => ({ data: await Promise.all((await store.keys.list()).map(listed)) }));
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
        ? [
            `expiresAt ${new Date(key.expiresAt).toISOString()} is in the past: every request with this key is refused (403 key_expired) until expiresAt is moved.`,
          ]
        : [];
    // The only time the secret is shown.
    return reply.code(201).send({ ...(await listed(key)), key: secret, ...(warnings.length > 0 ? { warnings } : {}) });
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
}

/** A key's `user` (id or name) as a user id; null detaches, undefined leaves it alone. */
async function resolveUser(deps: AppDeps, user: string | null | undefined): Promise<string | null | undefined> {
  if (user === undefined || user === null) return user;
  const found = await deps.store.users.find(user);
  if (!found) throw invalidRequest(`user: no user "${user}" exists; create it first with POST /api/admin/users.`, 'user');
  return found.id;
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
