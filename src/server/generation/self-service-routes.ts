import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateKey, requireUsableKey, type Caller } from '../../access/authenticate-key.ts';
import { visibleModels } from '../../access/authorize-model.ts';
import { checkIpAllowed, isIpAllowed } from '../../access/check-ip-allowed.ts';
import { extractApiKey } from '../../access/extract-api-key.ts';
import { describeRedemption, redeemCode } from '../../billing/redeem-code.ts';
import { subscriptionView } from '../../accounts/account-views.ts';
import { redeemSchema } from '../admin/admin-schemas.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import type { AppDeps } from '../app-deps.ts';
import { microsToUsd } from '../../domain/money.ts';
import { clientIpOf } from '../authenticate-request.ts';
import { nextPayer } from '../../billing/next-payer.ts';
import { diagnoseKey } from '../diagnose-key.ts';

const RECENT_USAGE_ROWS = 20;
const usd = microsToUsd;

/**
 * Self-service for key holders: `GET /api/me` (what the key can do and has done),
 * `GET /api/diagnose?model=&client=` (the model check) and `POST /api/me/redeem`. They take the
 * key in any client's header and apply the same rules as the generation routes: a disabled key
 * or account, an expired key and an address outside the key's allow-list are refused, each with
 * an error that says which (issue 23: a fenced key used from elsewhere could read the account's
 * e-mail, wallet and usage, and redeem codes). A key with no money left still gets its answer.
 */
export function registerSelfServiceRoutes(app: FastifyInstance, deps: AppDeps): void {
  const identify = (request: FastifyRequest): Caller => {
    const query = request.query as Record<string, unknown>;
    const secret = extractApiKey('anthropic', request.headers, query) ?? extractApiKey('gemini', request.headers, query);
    const caller = authenticateKey(deps.snapshot.current, secret);
    requireUsableKey(deps.snapshot.current, caller, deps.runtime.now());
    checkIpAllowed(caller.key, clientIpOf(deps, request));
    request.caller = caller;
    return caller;
  };

  app.get('/api/me', async (request) => {
    const caller = identify(request);
    const { key, group } = caller;
    const now = deps.runtime.now();
    const clientIp = clientIpOf(deps, request);
    const available = await deps.access.balances.available(key);
    const user = key.userId ? deps.snapshot.current.users.get(key.userId) : undefined;
    const wallet = user === undefined ? null : await deps.access.wallets.available(user);
    const subscriptions = user === undefined ? [] : (deps.snapshot.current.subscriptionsByUser.get(user.id) ?? []);
    const windows = await deps.access.balances.windowSpend(key);
    await deps.usageWriter.flush();
    const recent = await deps.store.usage.query({ keyId: key.id, limit: RECENT_USAGE_ROWS });
    return {
      key: {
        id: key.id,
        name: key.name,
        hint: key.keyHint,
        status: !key.enabled ? 'disabled' : key.expiresAt !== null && key.expiresAt <= now ? 'expired' : 'active',
        expiresAt: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
      },
      group: { name: group.name, description: group.description, priceMultiplier: group.priceMultiplier },
      models: visibleModels(deps.snapshot.current, caller),
      // What a request of this key spends: its own balance, else its account's wallet.
      balance: available !== null ? usd(available) : wallet !== null ? usd(wallet) : null,
      billing: {
        mode: group.billing,
        paysFrom: nextPayer(deps.snapshot.current, key, group, now),
      },
      account: user === undefined ? null : { id: user.id, name: user.name, email: user.email, wallet: usd(wallet ?? 0) },
      subscriptions: await Promise.all(
        subscriptions.flatMap((subscription) => {
          const plan = deps.snapshot.current.plans.get(subscription.planId);
          return plan === undefined
            ? []
            : [deps.access.subscriptions.usage(subscription, plan).then((usage) => subscriptionView(subscription, plan, user, usage, now))];
        }),
      ),
      spent: usd(key.spentMicros + deps.access.charges.pending(key.id)),
      limits: {
        requestsPerMinute: key.limits.requestsPerMinute ?? null,
        tokensPerMinute: key.limits.tokensPerMinute ?? null,
        concurrentRequests: key.limits.concurrentRequests ?? null,
        spend: windows.map((window) => ({
          period: window.period,
          limit: usd(window.limitMicros),
          spent: usd(window.spentMicros),
          resetsAt: new Date(window.end).toISOString(),
        })),
      },
      ip: { seen: clientIp, allowed: isIpAllowed(key, clientIp), allowList: key.allowedIps },
      recentUsage: recent.map((row) => ({
        paidBy: row.paidBy ?? null,
        subscriptionId: row.subscriptionId ?? null,
        requestId: row.requestId,
        time: new Date(row.time).toISOString(),
        model: row.model,
        status: row.status,
        errorCode: row.errorCode,
        inputTokens: row.inputTokens,
        outputTokens: row.outputTokens,
        cost: usd(row.costMicros),
        stream: row.stream,
      })),
    };
  });

  app.post('/api/me/redeem', async (request) => {
    const { key } = identify(request);
    const { code } = parseAdminInput(redeemSchema, request.body);
    const result = await redeemCode(deps.store, key, code, deps.runtime.now());
    await deps.snapshot.reload();
    return {
      redeemed: true,
      kind: result.kind,
      ...(result.amountMicros === undefined ? {} : { amount: usd(result.amountMicros) }),
      to: result.to,
      ...(result.subscriptionId === undefined
        ? {}
        : {
            subscription: {
              id: result.subscriptionId,
              plan: result.plan?.name ?? null,
              group: result.plan?.group ?? null,
              startsAt: new Date(result.startsAt ?? 0).toISOString(),
              expiresAt: new Date(result.expiresAt ?? 0).toISOString(),
            },
          }),
      message: describeRedemption(result),
    };
  });

  app.get('/api/diagnose', async (request) =>
    diagnoseKey(deps, request, identify(request), { revealOtherGroups: deps.settings.revealOtherGroupModels === true }),
  );
}
