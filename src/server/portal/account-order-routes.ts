import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.ts';
import { PAYMENT_PROVIDERS } from '../../domain/order.ts';
import { microsToUsd, usdToMicros } from '../../domain/money.ts';
import type { User } from '../../domain/user.ts';
import { createOrder } from '../../payments/create-order.ts';
import { buildStatement, monthRange, statementCsv } from '../../payments/build-statement.ts';
import { reconcileOrder } from '../../payments/reconcile-orders.ts';
import { releaseRebates, sumRebates } from '../../payments/referral.ts';
import { readPaymentSettings } from '../../payments/payment-settings.ts';
import { positiveUsd } from '../../schemas/field-rules.ts';
import type { AppDeps } from '../app-deps.ts';
import { orderView } from '../order-views.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { paymentDepsOf } from '../payment-deps-of.ts';
import { hashSessionToken } from '../../accounts/session-secret.ts';
import { withdrawableMicros, withdrawalRules } from '../../payments/referral-withdrawals.ts';
import { registerAccountWithdrawalRoutes } from './account-withdrawal-routes.ts';
import { registerAccountCheckoutRoutes } from './account-checkout-routes.ts';

const orderCreateSchema = z
  .strictObject({
    provider: z.enum(PAYMENT_PROVIDERS),
    amountUsd: positiveUsd.optional(),
    planId: z.string().min(1).max(100).optional(),
    promotionCode: z.string().trim().min(1).max(64).optional(),
  })
  .refine((input) => (input.amountUsd === undefined) !== (input.planId === undefined), {
    message: 'give either amountUsd (a top-up) or planId (a plan), not both',
    path: ['amountUsd'],
  });

/** The device cookie the portal sets once (the self-referral check compares its hash). */
export const DEVICE_COOKIE = 'switchyard_device';

/**
 * The account's side of money in (issue 28), inside the portal's `/api/account` scope (its
 * session and CSRF checks apply): open an order and follow it, and the invite page's numbers.
 */
export function registerAccountOrderRoutes(account: FastifyInstance, deps: AppDeps, userOf: (request: FastifyRequest) => User): void {
  const payments = paymentDepsOf(deps);
  registerAccountWithdrawalRoutes(account, deps, userOf);
  registerAccountCheckoutRoutes(account, deps);

  account.post('/orders', async (request, reply) => {
    const input = parseAdminInput(orderCreateSchema, request.body);
    const origin = `${request.protocol}://${request.host}`;
    const order = await createOrder(payments, {
      userId: userOf(request).id,
      provider: input.provider,
      amountMicros: input.amountUsd === undefined ? undefined : usdToMicros(input.amountUsd),
      planId: input.planId,
      promotionCode: input.promotionCode,
      returnUrl: (id) => `${origin}/console/orders?order=${encodeURIComponent(id)}`,
      notifyUrl: `${origin}/api/payments/${input.provider}/notify`,
    });
    return reply.code(201).send(orderView(order));
  });

  account.get('/orders', async (request) => ({ data: (await deps.store.orders.list({ userId: userOf(request).id })).map(orderView) }));

  account.get('/orders/:id', async (request) => {
    let order = await deps.store.orders.get((request.params as Record<string, string>).id ?? '');
    if (!order || order.userId !== userOf(request).id) throw new GatewayError('not_found', 'No such order on this account.');
    // The payer just came back from the checkout: ask the provider rather than wait for its notification.
    if (order.status === 'pending' || order.status === 'expired') {
      await reconcileOrder(payments, order).catch(() => undefined);
      order = (await deps.store.orders.get(order.id)) ?? order;
    }
    return orderView(order);
  });

  // A monthly statement: JSON for the printable page, `?format=csv` for a spreadsheet.
  account.get('/statements/:month', async (request, reply) => {
    const month = (request.params as Record<string, string>).month ?? '';
    const range = monthRange(month);
    if (!range) throw new GatewayError('invalid_request', 'The month is YYYY-MM, e.g. 2026-11.', { param: 'month' });
    const user = userOf(request);
    const statement = await buildStatement(deps.store, user, month, range, await deps.access.wallets.available(user), deps.runtime.now());
    if ((request.query as Record<string, unknown>).format === 'csv') {
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="statement-${month}.csv"`).send(statementCsv(statement));
    }
    return statement;
  });

  account.get('/referral', async (request) => {
    const user = userOf(request);
    await releaseRebates(payments);
    const device = deviceOf(request);
    if (device) await deps.store.referrals.noteDevice(user.id, device);
    const [{ code, ratePercent }, { referral }, invites, rebates, withdrawable, withdrawals] = await Promise.all([
      deps.store.referrals.codeOf(user.id),
      readPaymentSettings(deps.store),
      deps.store.referrals.invitesOf(user.id),
      deps.store.referrals.rebatesOf(user.id),
      // The session's copy of the account predates the rebates just released.
      deps.store.users.find(user.id).then((fresh) => withdrawableMicros(payments, fresh ?? user)),
      withdrawalRules(payments),
    ]);
    return {
      code,
      link: `${request.protocol}://${request.host}/console/sign-up?ref=${code}`,
      ratePercent: ratePercent ?? referral.ratePercent,
      holdDays: referral.holdDays,
      pendingUsd: microsToUsd(sumRebates(rebates, 'pending')),
      creditedUsd: microsToUsd(sumRebates(rebates, 'credited')),
      invites: invites.length,
      withdrawableUsd: microsToUsd(withdrawable),
      withdrawals,
      rebates: rebates.map((rebate) => ({
        orderId: rebate.orderId,
        amountUsd: microsToUsd(rebate.amountMicros - rebate.clawedMicros),
        status: rebate.status,
        releaseAt: new Date(rebate.releaseAt).toISOString(),
      })),
    };
  });
}

/** The hashed device cookie, when the browser sent one. */
export function deviceOf(request: FastifyRequest): string | null {
  const cookie = request.headers.cookie ?? '';
  const match = new RegExp(`(?:^|;\\s*)${DEVICE_COOKIE}=([A-Za-z0-9_-]{16,128})`).exec(cookie);
  return match?.[1] ? hashSessionToken(match[1]) : null;
}
