import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashPassword } from '../../access/hash-password.ts';
import { generateRedemptionCode, hashRedemptionCode } from '../../billing/redeem-code.ts';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { Plan } from '../../domain/plan.ts';
import { subscriptionStatus, type Subscription } from '../../domain/subscription.ts';
import type { User, UserPatch } from '../../domain/user.ts';
import { StoreConflictError } from '../../store/store.ts';
import type { AppDeps } from '../app-deps.ts';
import { planView, redemptionCodeView, subscriptionView, userView } from '../../accounts/account-views.ts';
import {
  planCreateSchema,
  planPatchSchema,
  redemptionCodeCreateSchema,
  subscriptionCreateSchema,
  subscriptionPatchSchema,
  subscriptionQuerySchema,
  userCreateSchema,
  userPatchSchema,
} from './admin-schemas.ts';
import { microsToUsd, usdToMicros } from '../../domain/money.ts';
import { attachReferral } from '../../payments/referral.ts';
import { parseAdminInput } from '../parse-admin-input.ts';

const DAY = 86_400_000;

/**
 * The accounts part of the admin API (issue 15): users and wallets, plans, subscriptions and
 * redemption codes. Wherever a path or body names a user or plan, its id or its name is
 * accepted. Every change reloads the snapshot before answering, like the rest of the admin API.
 */
export function registerAdminAccountRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const changed = () => deps.snapshot.reload();
  const now = () => deps.runtime.now();
  const showUser = async (user: User) => ({
    ...userView(user, await deps.access.wallets.available(user)),
    debtUsd: microsToUsd(await store.orders.debtOf(user.id)),
  });
  const showSubscription = async (subscription: Subscription) => {
    const plan = (await store.plans.find(subscription.planId)) as Plan;
    const user = await store.users.find(subscription.userId);
    return subscriptionView(subscription, plan, user, await deps.access.subscriptions.usage(subscription, plan), now());
  };

  app.register(
    async (admin) => {
      // Users
      admin.get('/users', async () => ({ data: await Promise.all((await store.users.list()).map(showUser)) }));
      admin.get('/users/:id', async (request) => showUser(await findUser(deps, param(request, 'id'))));
      admin.post('/users', async (request, reply) => {
        const input = parseAdminInput(userCreateSchema, request.body);
        if (input.referralCode !== undefined && !(await store.referrals.findCode(input.referralCode))) {
          throw invalidRequest('referralCode: no account has this invite code.', 'referralCode');
        }
        const user = await withConflicts(async () =>
          store.users.create({
            name: input.name,
            email: input.email ?? null,
            passwordHash: input.password ? await hashPassword(input.password) : null,
            balanceMicros: usdToMicros(input.balance ?? 0),
            enabled: input.enabled ?? true,
          }),
        );
        if (input.referralCode !== undefined) await attachReferral(store, user.id, input.referralCode, null);
        await changed();
        return reply.code(201).send(await showUser(user));
      });
      admin.patch('/users/:id', async (request) => {
        const input = parseAdminInput(userPatchSchema, request.body);
        const existing = await findUser(deps, param(request, 'id'));
        const patch: UserPatch = {};
        if (input.name !== undefined) patch.name = input.name;
        if (input.email !== undefined) patch.email = input.email;
        if (input.password !== undefined) patch.passwordHash = input.password === null ? null : await hashPassword(input.password);
        if (input.enabled !== undefined) patch.enabled = input.enabled;
        if (input.balance !== undefined) {
          // A new balance is the balance from now on: queued charges must reach the database
          // first, or they would be taken off the new amount too.
          await deps.access.walletCharges.flush();
          patch.balanceMicros = usdToMicros(input.balance);
        }
        let user = existing;
        if (Object.keys(patch).length > 0) user = (await withConflicts(() => store.users.update(existing.id, patch))) ?? notFound('user', existing.id);
        // Atomic in the database (balance = balance + delta), and a new wallet version.
        if (input.balanceDelta !== undefined && input.balanceDelta !== 0) {
          user = (await store.users.addBalance(existing.id, usdToMicros(input.balanceDelta))) ?? notFound('user', existing.id);
        }
        await changed();
        return showUser(user);
      });
      admin.delete('/users/:id', async (request, reply) => {
        const user = await findUser(deps, param(request, 'id'));
        if (!(await withConflicts(() => store.users.delete(user.id)))) notFound('user', user.id);
        await changed();
        return reply.code(204).send();
      });

      // Plans
      admin.get('/plans', async () => ({ data: (await store.plans.list()).map(planView) }));
      admin.get('/plans/:id', async (request) => planView(await findPlan(deps, param(request, 'id'))));
      admin.post('/plans', async (request, reply) => {
        const input = parseAdminInput(planCreateSchema, request.body);
        const plan = await withConflicts(() =>
          store.plans.create({
            name: input.name,
            group: input.group,
            durationDays: input.durationDays,
            quota: toQuota(input.quota),
            priceMicros: input.price == null ? null : usdToMicros(input.price),
            description: input.description ?? '',
          }),
        );
        await changed();
        return reply.code(201).send(planView(plan));
      });
      admin.patch('/plans/:id', async (request) => {
        const input = parseAdminInput(planPatchSchema, request.body);
        const existing = await findPlan(deps, param(request, 'id'));
        const plan = await withConflicts(() =>
          store.plans.update(existing.id, {
            ...(input.name === undefined ? {} : { name: input.name }),
            ...(input.group === undefined ? {} : { group: input.group }),
            ...(input.durationDays === undefined ? {} : { durationDays: input.durationDays }),
            ...(input.quota === undefined ? {} : { quota: toQuota(input.quota) }),
            ...(input.price === undefined ? {} : { priceMicros: input.price === null ? null : usdToMicros(input.price) }),
            ...(input.description === undefined ? {} : { description: input.description }),
          }),
        );
        await changed();
        return planView(plan ?? notFound('plan', existing.id));
      });
      admin.delete('/plans/:id', async (request, reply) => {
        const plan = await findPlan(deps, param(request, 'id'));
        if (!(await withConflicts(() => store.plans.delete(plan.id, now())))) notFound('plan', plan.id);
        await changed();
        return reply.code(204).send();
      });

      // Subscriptions
      admin.get('/subscriptions', async (request) => {
        const query = parseAdminInput(subscriptionQuerySchema, request.query);
        const userId = query.user === undefined ? undefined : (await findUser(deps, query.user, 'user')).id;
        const list = await store.subscriptions.list(userId === undefined ? {} : { userId });
        const time = now();
        const picked = query.status === undefined ? list : list.filter((subscription) => subscriptionStatus(subscription, time) === query.status);
        return { data: await Promise.all(picked.map(showSubscription)) };
      });
      admin.get('/subscriptions/:id', async (request) => showSubscription(await findSubscription(deps, param(request, 'id'))));
      admin.post('/subscriptions', async (request, reply) => {
        const input = parseAdminInput(subscriptionCreateSchema, request.body);
        const user = await findUser(deps, input.user, 'user');
        const plan = await findPlan(deps, input.plan, 'plan');
        const startsAt = input.startsAt ?? now();
        const expiresAt = input.expiresAt ?? startsAt + plan.durationDays * DAY;
        if (expiresAt <= startsAt) throw invalidRequest('expiresAt: must be after startsAt.', 'expiresAt');
        const subscription = await withConflicts(() => store.subscriptions.create({ userId: user.id, planId: plan.id, startsAt, expiresAt }));
        await changed();
        return reply.code(201).send(await showSubscription(subscription));
      });
      admin.patch('/subscriptions/:id', async (request) => {
        const input = parseAdminInput(subscriptionPatchSchema, request.body);
        const existing = await findSubscription(deps, param(request, 'id'));
        const expiresAt = input.expiresAt ?? null;
        if (expiresAt !== null && expiresAt <= existing.startsAt) throw invalidRequest('expiresAt: must be after the subscription starts.', 'expiresAt');
        const subscription = await store.subscriptions.update(existing.id, {
          ...(input.status === undefined ? {} : { suspended: input.status === 'suspended' }),
          ...(expiresAt === null ? {} : { expiresAt }),
        });
        await changed();
        return showSubscription(subscription ?? notFound('subscription', existing.id));
      });

      // Redemption codes: the codes are in this answer only; the store keeps their hashes.
      admin.post('/redemption-codes', async (request, reply) => {
        const input = parseAdminInput(redemptionCodeCreateSchema, request.body);
        const plan = input.kind === 'subscription' ? await findPlan(deps, input.plan, 'plan') : undefined;
        const codes = Array.from({ length: input.count ?? 1 }, generateRedemptionCode);
        const expiresAt = input.expiresAt ?? null;
        const created = await store.redemptionCodes.createMany(
          codes.map((code) => ({
            codeHash: hashRedemptionCode(code),
            kind: input.kind,
            amountMicros: input.kind === 'balance' ? usdToMicros(input.amount) : null,
            planId: plan?.id ?? null,
            expiresAt,
          })),
        );
        return reply.code(201).send({ codes, ids: created.map((code) => code.id) });
      });
      admin.get('/redemption-codes', async () => {
        const plans = new Map((await store.plans.list()).map((plan) => [plan.id, plan]));
        const time = now();
        return {
          data: (await store.redemptionCodes.list()).map((code) => redemptionCodeView(code, code.planId === null ? undefined : plans.get(code.planId), time)),
        };
      });
    },
    { prefix: '/api/admin' },
  );
}

export async function findUser(deps: AppDeps, idOrName: string, field?: string): Promise<User> {
  const user = await deps.store.users.find(idOrName);
  if (user) return user;
  if (field) throw invalidRequest(`${field}: no user "${idOrName}" exists; create it first with POST /api/admin/users.`, field);
  return notFound('user', idOrName);
}

async function findPlan(deps: AppDeps, idOrName: string, field?: string): Promise<Plan> {
  const plan = await deps.store.plans.find(idOrName);
  if (plan) return plan;
  if (field) throw invalidRequest(`${field}: no plan "${idOrName}" exists; create it first with POST /api/admin/plans.`, field);
  return notFound('plan', idOrName);
}

async function findSubscription(deps: AppDeps, id: string): Promise<Subscription> {
  return (await deps.store.subscriptions.get(id)) ?? notFound('subscription', id);
}

function notFound(kind: string, id: string): never {
  throw new GatewayError('not_found', `No ${kind} "${id}" exists.`);
}

function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name] ?? '';
}

async function withConflicts<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof StoreConflictError) throw new GatewayError('conflict', error.message, { param: error.field });
    throw error;
  }
}

function toQuota(quota: { daily?: number | undefined; weekly?: number | undefined; monthly?: number | undefined; total?: number | undefined }): Plan['quota'] {
  const result: Plan['quota'] = {};
  for (const window of ['daily', 'weekly', 'monthly', 'total'] as const) {
    const usd = quota[window];
    if (usd !== undefined) result[window] = usdToMicros(usd);
  }
  return result;
}
