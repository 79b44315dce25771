import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accountUsage } from '../../accounts/account-usage.ts';
import { accountKeyGroups, accountSubscriptions, portalUser, redeemForAccount } from '../../accounts/portal-account.ts';
import { accountKey, accountKeys, accountKeyView, createAccountKey, deleteAccountKey, updateAccountKey } from '../../accounts/portal-keys.ts';
import { findPortalSession, openPortalSession, type PortalSession } from '../../accounts/portal-sessions.ts';
import { TotpFactors } from '../../identity/totp-factors.ts';
import { SignInThrottle, type SignInThrottleOptions } from '../../accounts/sign-in-throttle.ts';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { PortalAccountView, PortalKey, PortalRedeemAnswer, PortalSignIn } from '../../domain/account-portal-api.ts';
import type { AppDeps } from '../app-deps.ts';
import { clientIpOf } from '../authenticate-request.ts';
import { diagnoseKey } from '../diagnose-key.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { requireJson } from '../require-json.ts';
import { clearSessionCookie, readSessionCookie, sameOrigin, setSessionCookie } from '../session-cookie.ts';
import { registerAccountNotifyRoutes } from './account-notify-routes.ts';
import { registerAccountSecurityRoutes, userAgentOf } from './account-security-routes.ts';
import { requirePasswordSignIn } from '../../identity/second-factor.ts';
import { registerAccountOrderRoutes } from './account-order-routes.ts';
import { PORTAL_PASSKEY_SIGN_IN_PATHS, registerAccountPasskeyRoutes } from './account-passkey-routes.ts';
import { microsToUsd } from '../../domain/money.ts';
import { keyCreateSchema, keyPatchSchema, redeemSchema, signInSchema } from './account-schemas.ts';

export interface AccountRouteOptions {
  /** How long a session lives from sign-in (absolute; default 12 hours). */
  sessionTtlMs?: number;
  throttle?: SignInThrottleOptions;
}

const DEFAULT_SESSION_TTL_MS = 12 * 3_600_000;

/**
 * The account portal's API under /api/account, for people who sign in with an email or name and
 * a password (issue 16); the rules live in src/accounts/, this file speaks HTTP. A session is a
 * random 256-bit token in an HttpOnly, SameSite=Strict cookie scoped to /api/account; the
 * database keeps its SHA-256 only. Every state-changing call must carry the session's CSRF token
 * in `x-csrf-token` (and, when the browser sends one, an Origin equal to this gateway's), so
 * another site can neither read nor forge a call. Failed sign-ins are throttled per account and
 * per address in the shared kv (429 with retry-after).
 */
export function registerAccountRoutes(app: FastifyInstance, deps: AppDeps, options: AccountRouteOptions = {}): void {
  const ttlMs = options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS;
  const throttle = new SignInThrottle(deps.access.kv, () => deps.runtime.now(), options.throttle);
  const signedIn = new WeakMap<FastifyRequest, PortalSession>();
  const session = (request: FastifyRequest): PortalSession => {
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
        if (request.method === 'POST' && (path === '/api/account/session' || PORTAL_PASSKEY_SIGN_IN_PATHS.includes(path ?? ''))) return;
        const token = readSessionCookie(request);
        const lookup = await findPortalSession(deps, token, request.headers['x-csrf-token'], changesState);
        if ('refusal' in lookup) {
          if (token !== undefined) clearSessionCookie(request, reply);
          throw lookup.refusal;
        }
        signedIn.set(request, lookup.found);
        await deps.store.sessionDevices.portal.touch(lookup.found.tokenHash, deps.runtime.now());
      });

      account.post('/session', async (request, reply): Promise<PortalSignIn> => {
        requireJson(request);
        const input = parseAdminInput(signInSchema, request.body);
        const { totp, ...credentials } = input;
        const opened = await openPortalSession(deps, throttle, {
          ...credentials,
          address: clientIpOf(deps, request),
          ttlMs,
          userAgent: userAgentOf(request),
          // "OIDC only" closes passwords; an enrolled authenticator must give its code.
          afterPassword: (user, attempt) => requirePasswordSignIn(deps.store, () => deps.runtime.now(), { kind: 'user', id: user.id }, totp, attempt),
        });
        setSessionCookie(request, reply, opened.token, Math.floor(ttlMs / 1000));
        return { user: await portalUser(deps, opened.user), csrfToken: opened.csrfToken, sessionExpiresAt: new Date(opened.expiresAt).toISOString() };
      });

      account.delete('/session', async (request, reply) => {
        await deps.store.accountSessions.delete(session(request).tokenHash);
        clearSessionCookie(request, reply);
        return reply.code(204).send();
      });

      account.get('/', async (request): Promise<PortalAccountView> => {
        const { user, csrfToken, expiresAt } = session(request);
        const subscriptions = await accountSubscriptions(deps, user);
        return {
          user: await portalUser(deps, user),
          subscriptions: subscriptions.map((entry) => entry.view),
          groups: await accountKeyGroups(deps, subscriptions),
          csrfToken,
          sessionExpiresAt: new Date(expiresAt).toISOString(),
          altPrefix: deps.settings.altPrefix,
          debtUsd: microsToUsd(await deps.store.orders.debtOf(user.id)),
          twoFactor: await new TotpFactors(deps.store.identity, () => deps.runtime.now()).isOn({ kind: 'user', id: user.id }),
        };
      });

      registerAccountSecurityRoutes(account, deps, session);
      registerAccountPasskeyRoutes(account, deps, session, ttlMs);
      registerAccountOrderRoutes(account, deps, (request) => session(request).user);
      registerKeyRoutes(account, deps, session);

      account.post('/redeem', async (request): Promise<PortalRedeemAnswer> => {
        const input = parseAdminInput(redeemSchema, request.body);
        return redeemForAccount(deps, session(request).user, input.code);
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
        const key = (await accountKeys(deps, user)).find((entry) => entry.id === query.key);
        if (!key) throw invalidRequest('key: name one of your keys by its id.', 'key');
        const snapshot = deps.snapshot.current;
        const current = snapshot.keysByHash.get(key.keyHash) ?? key;
        const group = snapshot.groups.get(current.group);
        if (!group) throw invalidRequest(`The key's group "${current.group}" no longer exists; ask the operator.`, 'key');
        // The account's other groups: a model one of them serves is named as such, not as a misspelling.
        const accountGroups = (await accountKeyGroups(deps, await accountSubscriptions(deps, user))).map((entry) => entry.name);
        return diagnoseKey(deps, request, { key: current, group }, { revealOtherGroups: deps.settings.revealOtherGroupModels === true, accountGroups });
      });

      registerAccountNotifyRoutes(account, deps, (request) => session(request).user);
    },
    { prefix: '/api/account' },
  );
}

/** `GET/POST /keys`, `PATCH/DELETE /keys/:id`: the account's own keys. */
function registerKeyRoutes(account: FastifyInstance, deps: AppDeps, session: (request: FastifyRequest) => PortalSession): void {
  const keyId = (request: FastifyRequest) => (request.params as Record<string, string>).id ?? '';

  account.get(
    '/keys',
    async (request): Promise<{ data: PortalKey[] }> => ({
      data: (await accountKeys(deps, session(request).user)).map((key) => accountKeyView(deps, key)),
    }),
  );

  account.post('/keys', async (request, reply) => {
    const { user } = session(request);
    const input = parseAdminInput(keyCreateSchema, request.body);
    const { key, secret } = await createAccountKey(deps, user, input);
    // The only time the secret is shown.
    return reply.code(201).send({ ...accountKeyView(deps, key), key: secret });
  });

  account.patch('/keys/:id', async (request) => {
    const key = await accountKey(deps, session(request).user, keyId(request));
    const input = parseAdminInput(keyPatchSchema, request.body);
    return accountKeyView(deps, await updateAccountKey(deps, key, input));
  });

  account.delete('/keys/:id', async (request, reply) => {
    await deleteAccountKey(deps, await accountKey(deps, session(request).user, keyId(request)));
    return reply.code(204).send();
  });
}
