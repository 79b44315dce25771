import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { verifyPassword } from '../../access/hash-password.ts';
import { normaliseLogin, SignInThrottle, type SignInThrottleOptions } from '../../accounts/sign-in-throttle.ts';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { Plan } from '../../domain/plan.ts';
import { subscriptionStatus, type Subscription } from '../../domain/subscription.ts';
import type { User } from '../../domain/user.ts';
import { listGroupModels } from '../../snapshot/snapshot.ts';
import { generateApiKey } from '../../store/generate-api-key.ts';
import { hashApiKey } from '../../store/hash-api-key.ts';
import { StoreConflictError } from '../../store/store.ts';
import { keyHint } from '../../store/key-hint.ts';
import type { ApiKey } from '../../domain/api-key.ts';
import type { PortalAccountView, PortalGroup, PortalKey, PortalRedeemAnswer, PortalSignIn, PortalUser } from '../../domain/account-portal-api.ts';
import type { AppDeps } from '../app-deps.ts';
import {
  clearSessionCookie,
  csrfMatches,
  hashSessionToken,
  newSessionSecret,
  readSessionCookie,
  sameOrigin,
  setSessionCookie,
} from './account-session-cookie.ts';
import { subscriptionView, userView } from './account-views.ts';
import { microsToUsd, usdToMicros } from '../../domain/money.ts';
import { clientIpOf } from './authenticate-request.ts';
import { parseAdminInput } from './parse-admin-input.ts';
import { accountUsage } from './account-usage.ts';
import { describeRedemption, redeemCode } from '../../billing/redeem-code.ts';
import { accountDefaultGroup } from './account-settings.ts';
import { isIpOrCidr } from '../../schemas/is-ip-or-cidr.ts';
import { positiveUsd } from '../../schemas/field-rules.ts';
import { diagnoseKey } from './diagnose-key.ts';
import { registerAccountOrderRoutes } from './account-order-routes.ts';

export interface AccountRouteOptions {
  /** How long a session lives from sign-in (absolute; default 12 hours). */
  sessionTtlMs?: number;
  throttle?: SignInThrottleOptions;
}

const DEFAULT_SESSION_TTL_MS = 12 * 3_600_000;
/** An account may hold this many keys; enough for every client and machine, not for a flood. */
const MAX_KEYS_PER_ACCOUNT = 50;

// A well-formed hash to verify against when the account does not exist, so "no such account"
// and "wrong password" take the same time (scrypt dominates either way).
export const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

const signInSchema = z.strictObject({ login: z.string().min(1).max(320), password: z.string().min(1).max(1024) });
// The admin API's USD rule (one bound for every amount); a cap set here must be above 0, and null removes it.
const capsSchema = z.strictObject({
  dailySpend: positiveUsd.nullable().optional(),
  weeklySpend: positiveUsd.nullable().optional(),
  monthlySpend: positiveUsd.nullable().optional(),
});
const ipListSchema = z
  .array(z.string().refine(isIpOrCidr, 'must be an IP address or CIDR range, e.g. 203.0.113.0/24'))
  .max(100)
  .nullable()
  .optional();
const keyCreateSchema = z.strictObject({ name: z.string().trim().min(1).max(100), group: z.string().min(1), allowedIps: ipListSchema, limits: capsSchema.optional() });
const keyPatchSchema = z.strictObject({ name: z.string().trim().min(1).max(100).optional(), allowedIps: ipListSchema, limits: capsSchema.optional() });
const redeemSchema = z.strictObject({ code: z.string().min(1).max(200) });

interface SignedIn {
  user: User;
  tokenHash: string;
  csrfToken: string;
  expiresAt: number;
}

/**
 * The account portal's API under /api/account, for people who sign in with an email or name and
 * a password (issue 16). A session is a random 256-bit token in an HttpOnly, SameSite=Strict
 * cookie scoped to /api/account; the database keeps its SHA-256 only. Every state-changing call
 * must carry the session's CSRF token in `x-csrf-token` (and, when the browser sends one, an
 * Origin equal to this gateway's), so another site can neither read nor forge a call. Failed
 * sign-ins are throttled per account and per address in the shared kv (429 with retry-after).
 */
export function registerAccountRoutes(app: FastifyInstance, deps: AppDeps, options: AccountRouteOptions = {}): void {
  const { store } = deps;
  const now = () => deps.runtime.now();
  const ttlMs = options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS;
  const throttle = new SignInThrottle(deps.access.kv, now, options.throttle);
  const signedIn = new WeakMap<FastifyRequest, SignedIn>();

  const session = (request: FastifyRequest): SignedIn => {
    const found = signedIn.get(request);
    if (!found) throw new GatewayError('session_required', 'Sign in to your account first.');
    return found;
  };

  app.register(
    async (account) => {
      // Every portal route: its error messages are read by the account holder, not by support.
      account.addHook('onRoute', (route) => {
        route.config = { ...route.config, consumerFacing: true };
      });
      account.addHook('onRequest', async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const path = request.url.split('?')[0];
        const changesState = request.method !== 'GET' && request.method !== 'HEAD';
        if (changesState && !sameOrigin(request)) {
          throw new GatewayError('csrf_failed', 'This request came from another site; the account API only answers pages of this gateway.');
        }
        if (request.method === 'POST' && path === '/api/account/session') return;
        const token = readSessionCookie(request);
        const row = token === undefined ? undefined : await store.accountSessions.find(hashSessionToken(token), now());
        if (!row) {
          if (token !== undefined) clearSessionCookie(request, reply);
          throw new GatewayError('session_required', 'You are not signed in, or your session has ended (sessions last 12 hours). Sign in again.');
        }
        const user = await store.users.find(row.userId);
        if (!user || !user.enabled || user.id !== row.userId) {
          await store.accountSessions.delete(row.tokenHash);
          clearSessionCookie(request, reply);
          throw new GatewayError('session_required', 'This account is disabled or no longer exists; ask the operator.');
        }
        if (changesState && !csrfMatches(request.headers['x-csrf-token'], row.csrfToken)) {
          throw new GatewayError('csrf_failed', 'The request lacks this session’s CSRF token (x-csrf-token). Reload the console and try again.');
        }
        signedIn.set(request, { user, tokenHash: row.tokenHash, csrfToken: row.csrfToken, expiresAt: row.expiresAt });
      });

      account.post('/session', async (request, reply): Promise<PortalSignIn> => {
        requireJson(request);
        const input = parseAdminInput(signInSchema, request.body);
        const address = clientIpOf(deps, request);
        // Both budgets are taken before the password is checked (see SignInThrottle).
        const byAddress = await throttle.admitAddress(address);
        if (!byAddress.admitted) throw signInThrottled(byAddress.retryAfterSeconds);
        const user = await findByLogin(input.login);
        const admission = await throttle.admitAccount(byAddress.attempt, user?.id, input.login);
        if (!admission.admitted) throw signInThrottled(admission.retryAfterSeconds);
        const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
        if (!user || !user.passwordHash || !passwordOk || !user.enabled) {
          throw new GatewayError('sign_in_failed', 'That email or name and password do not match an enabled account.');
        }
        await admission.attempt.release();
        const token = newSessionSecret();
        const csrfToken = newSessionSecret();
        const createdAt = now();
        const expiresAt = createdAt + ttlMs;
        await store.accountSessions.create({ tokenHash: hashSessionToken(token), userId: user.id, csrfToken, clientIp: address, createdAt, expiresAt });
        setSessionCookie(request, reply, token, Math.floor(ttlMs / 1000));
        return { user: await showUser(user), csrfToken, sessionExpiresAt: new Date(expiresAt).toISOString() };
      });

      account.delete('/session', async (request, reply) => {
        await store.accountSessions.delete(session(request).tokenHash);
        clearSessionCookie(request, reply);
        return reply.code(204).send();
      });

      account.get('/', async (request): Promise<PortalAccountView> => {
        const { user, csrfToken, expiresAt } = session(request);
        const subscriptions = await mySubscriptions(user);
        return {
          user: await showUser(user),
          subscriptions: subscriptions.map((entry) => entry.view),
          groups: await keyGroups(user, subscriptions),
          csrfToken,
          sessionExpiresAt: new Date(expiresAt).toISOString(),
          altPrefix: deps.settings.altPrefix,
          debtUsd: microsToUsd(await store.orders.debtOf(user.id)),
        };
      });

      registerAccountOrderRoutes(account, deps, (request) => session(request).user);

      account.get('/keys', async (request): Promise<{ data: PortalKey[] }> => ({ data: (await myKeys(session(request).user)).map(accountKeyView) }));

      account.post('/keys', async (request, reply) => {
        const { user } = session(request);
        const input = parseAdminInput(keyCreateSchema, request.body);
        const groups = await keyGroups(user, await mySubscriptions(user));
        if (!groups.some((group) => group.name === input.group)) {
          throw invalidRequest(
            `group: you may create keys in ${groups.length ? groups.map((group) => `"${group.name}"`).join(', ') : 'no group yet (redeem a subscription code first)'}, not "${input.group}".`,
            'group',
          );
        }
        if ((await myKeys(user)).length >= MAX_KEYS_PER_ACCOUNT) {
          throw new GatewayError('conflict', `An account may hold at most ${MAX_KEYS_PER_ACCOUNT} keys; revoke one you no longer use first.`);
        }
        const secret = generateApiKey();
        const key = await withinAccount(store.keys.create({
          name: input.name,
          group: input.group,
          keyHash: hashApiKey(secret),
          keyHint: keyHint(secret),
          expiresAt: null,
          // No own balance: the key spends from the account's wallet (or its subscription).
          balanceMicros: null,
          allowedModels: null,
          allowedIps: input.allowedIps ?? null,
          enabled: true,
          limits: capsToLimits({}, input.limits),
          userId: user.id,
        }));
        await deps.snapshot.reload();
        // The only time the secret is shown.
        return reply.code(201).send({ ...accountKeyView(key), key: secret });
      });

      account.patch('/keys/:id', async (request) => {
        const key = await myKey(request);
        const input = parseAdminInput(keyPatchSchema, request.body);
        const updated = await withinAccount(
          store.keys.update(key.id, {
            ...(input.name === undefined ? {} : { name: input.name }),
            ...(input.allowedIps === undefined ? {} : { allowedIps: input.allowedIps }),
            ...(input.limits === undefined ? {} : { limits: capsToLimits(key.limits, input.limits) }),
          }),
        );
        await deps.snapshot.reload();
        return accountKeyView(updated ?? key);
      });

      account.delete('/keys/:id', async (request, reply) => {
        const key = await myKey(request);
        await store.keys.delete(key.id);
        await deps.snapshot.reload();
        return reply.code(204).send();
      });

      account.post('/redeem', async (request): Promise<PortalRedeemAnswer> => {
        const { user } = session(request);
        const input = parseAdminInput(redeemSchema, request.body);
        const result = await redeemCode(store, { id: null, userId: user.id, balanceMicros: null }, input.code, now());
        await deps.snapshot.reload();
        const fresh = (await store.users.find(user.id)) ?? user;
        return {
          kind: result.kind,
          ...(result.amountMicros === undefined ? {} : { amount: microsToUsd(result.amountMicros) }),
          ...(result.subscriptionId === undefined
            ? {}
            : {
                subscription: {
                  id: result.subscriptionId,
                  planName: result.plan?.name ?? null,
                  group: result.plan?.group ?? null,
                  startsAt: new Date(result.startsAt ?? 0).toISOString(),
                  expiresAt: new Date(result.expiresAt ?? 0).toISOString(),
                },
              }),
          balance: microsToUsd(await deps.access.wallets.available(fresh)),
          message: describeRedemption(result),
        };
      });

      account.get('/usage', async (request) => {
        const { user } = session(request);
        const days = Number((request.query as Record<string, unknown>).days ?? 7);
        if (!Number.isInteger(days) || days < 1 || days > 90) throw invalidRequest('days: a whole number from 1 to 90.', 'days');
        return accountUsage(deps, user.id, days);
      });

      account.get('/diagnose', async (request) => {
        const { user } = session(request);
        const query = request.query as Record<string, unknown>;
        const key = (await myKeys(user)).find((entry) => entry.id === query.key);
        if (!key) throw invalidRequest('key: name one of your keys by its id.', 'key');
        const snapshot = deps.snapshot.current;
        const current = snapshot.keysByHash.get(key.keyHash) ?? key;
        const group = snapshot.groups.get(current.group);
        if (!group) throw invalidRequest(`The key's group "${current.group}" no longer exists; ask the operator.`, 'key');
        // The account's other groups: a model one of them serves is named as such, not as a misspelling.
        const accountGroups = (await keyGroups(user, await mySubscriptions(user))).map((entry) => entry.name);
        return diagnoseKey(deps, request, { key: current, group }, { revealOtherGroups: deps.settings.revealOtherGroupModels === true, accountGroups });
      });
    },
    { prefix: '/api/account' },
  );

  async function findByLogin(login: string): Promise<User | undefined> {
    const trimmed = login.trim();
    const byName = await store.users.find(trimmed);
    if (byName && byName.name === trimmed) return byName;
    const wanted = normaliseLogin(login);
    return (await store.users.list()).find((user) => user.email !== null && user.email.toLowerCase() === wanted);
  }

  async function showUser(user: User): Promise<PortalUser> {
    const view = userView(user, await deps.access.wallets.available(user));
    return { id: view.id, name: view.name, email: view.email, balance: view.balance, spent: view.spent, enabled: view.enabled };
  }

  async function mySubscriptions(user: User): Promise<Array<{ subscription: Subscription; plan: Plan | undefined; view: ReturnType<typeof subscriptionView> }>> {
    const list = await store.subscriptions.list({ userId: user.id });
    const time = now();
    return Promise.all(
      list.map(async (subscription) => {
        const plan = await store.plans.find(subscription.planId);
        const usage = plan ? await deps.access.subscriptions.usage(subscription, plan) : [];
        return { subscription, plan, view: subscriptionView(subscription, plan, user, usage, time) };
      }),
    );
  }

  /** The groups of the account's active subscriptions, and the operator's default group for accounts. */
  async function keyGroups(user: User, subscriptions: Array<{ subscription: Subscription; plan: Plan | undefined }>): Promise<PortalGroup[]> {
    const snapshot = deps.snapshot.current;
    const time = now();
    const result = new Map<string, PortalGroup>();
    for (const { subscription, plan } of subscriptions) {
      if (!plan || subscriptionStatus(subscription, time) !== 'active' || subscription.startsAt > time) continue;
      const group = snapshot.groups.get(plan.group);
      if (group && !result.has(group.name)) {
        result.set(group.name, { name: group.name, description: group.description, billing: group.billing, models: listGroupModels(snapshot, group.name), via: 'subscription' });
      }
    }
    const fallback = await accountDefaultGroup(store);
    const group = fallback === null ? undefined : snapshot.groups.get(fallback);
    if (group && !result.has(group.name)) {
      result.set(group.name, { name: group.name, description: group.description, billing: group.billing, models: listGroupModels(snapshot, group.name), via: 'default' });
    }
    void user;
    return [...result.values()];
  }

  async function myKeys(user: User): Promise<ApiKey[]> {
    return (await store.keys.list()).filter((key) => key.userId === user.id);
  }

  async function myKey(request: FastifyRequest): Promise<ApiKey> {
    const { user } = session(request);
    const id = (request.params as Record<string, string>).id ?? '';
    const key = (await myKeys(user)).find((entry) => entry.id === id);
    // Someone else's key and no key at all answer alike: ids of other accounts' keys stay secret.
    if (!key) throw new GatewayError('not_found', `You have no key with id "${id}".`);
    return key;
  }

  function accountKeyView(key: ApiKey): PortalKey {
    const limits: Record<string, number> = {};
    if (key.limits.dailySpendMicros !== undefined) limits.dailySpend = microsToUsd(key.limits.dailySpendMicros);
    if (key.limits.weeklySpendMicros !== undefined) limits.weeklySpend = microsToUsd(key.limits.weeklySpendMicros);
    if (key.limits.monthlySpendMicros !== undefined) limits.monthlySpend = microsToUsd(key.limits.monthlySpendMicros);
    return {
      id: key.id,
      name: key.name,
      group: key.group,
      keyHint: key.keyHint,
      enabled: key.enabled,
      expiresAt: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
      spent: microsToUsd(key.spentMicros + deps.access.charges.pending(key.id)),
      allowedIps: key.allowedIps,
      // What the key's group serves (even while a subscription is suspended, so the model check
      // and the client snippets can still name the model).
      models: listGroupModels(deps.snapshot.current, key.group).filter((model) => key.allowedModels === null || key.allowedModels.includes(model)),
      limits,
      createdAt: new Date(key.createdAt).toISOString(),
    };
  }
}

/**
 * A store conflict on an account's own key is a 409 about that account's keys: key names are
 * unique per account (migration 011), so a name another account uses is no conflict at all, and
 * nothing about other accounts' keys can be learnt from the answer.
 */
async function withinAccount<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    const message = error.field === 'name' ? 'You already have a key with that name; choose another.' : error.message;
    throw new GatewayError('conflict', message, { param: error.field });
  }
}

/** Spend caps the account sets on its own key; the operator's rate limits on it are kept. */
function capsToLimits(current: ApiKey['limits'], caps: z.infer<typeof capsSchema> | undefined): ApiKey['limits'] {
  const next = { ...current };
  if (!caps) return next;
  const set = (field: 'dailySpendMicros' | 'weeklySpendMicros' | 'monthlySpendMicros', value: number | null | undefined) => {
    if (value === undefined) return;
    if (value === null) delete next[field];
    else next[field] = usdToMicros(value);
  };
  set('dailySpendMicros', caps.dailySpend);
  set('weeklySpendMicros', caps.weeklySpend);
  set('monthlySpendMicros', caps.monthlySpend);
  return next;
}

function signInThrottled(seconds: number): GatewayError {
  return new GatewayError('rate_limited', `Too many failed sign-ins for this account or from this address; try again in ${seconds} seconds.`, {
    retryAfterSeconds: seconds,
  });
}

/** Sign-in takes JSON only: a cross-site HTML form cannot send it without a CORS preflight. */
export function requireJson(request: FastifyRequest): void {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !type.toLowerCase().startsWith('application/json')) {
    throw invalidRequest('Send the sign-in as JSON (content-type: application/json).');
  }
}
