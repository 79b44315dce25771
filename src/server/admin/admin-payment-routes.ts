import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { PAYMENT_PROVIDERS, type PaymentProviderName } from '../../domain/order.ts';
import { usdToMicros } from '../../domain/money.ts';
import { mergeProviderSettings, PROVIDER_SETTINGS_SCHEMAS, providerView } from '../../payments/provider-settings.ts';
import { refundOrder } from '../../payments/refund-order.ts';
import { creditOrder } from '../../payments/settle-payment.ts';
import { ordersCsv } from '../../payments/orders-csv.ts';
import type { AppDeps } from '../app-deps.ts';
import { orderQuerySchema, orderRefundSchema, promotionCreateSchema, referralOverrideSchema } from './admin-payment-schemas.ts';
import { orderView } from '../order-views.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { paymentDepsOf } from '../payment-deps-of.ts';

/**
 * The operator's side of money in (issue 28): payment providers (secrets masked in answers),
 * orders with filters, refunds and manual mark-paid, CSV exports with totals, promotion codes,
 * and per-inviter referral rates. Permissions are in the admin API description.
 */
export function registerAdminPaymentRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const payments = paymentDepsOf(deps);
  const param = (request: FastifyRequest, name: string) => (request.params as Record<string, string>)[name] ?? '';

  app.register(
    async (admin) => {
      admin.get('/payment-providers', async () => {
        const stored = await store.paymentProviders.list();
        return {
          data: PAYMENT_PROVIDERS.map((name) =>
            providerView(
              name,
              stored.find((entry) => entry.name === name),
            ),
          ),
        };
      });
      admin.patch('/payment-providers/:name', async (request) => {
        const name = param(request, 'name') as PaymentProviderName;
        if (!PAYMENT_PROVIDERS.includes(name)) throw new GatewayError('not_found', `No payment provider "${name}"; they are ${PAYMENT_PROVIDERS.join(', ')}.`);
        const patch = parseAdminInput(PROVIDER_SETTINGS_SCHEMAS[name], request.body) as Record<string, unknown>;
        const merged = mergeProviderSettings(name, await store.paymentProviders.get(name), patch);
        if ('missing' in merged) throw invalidRequest(`${merged.missing}: is required to enable ${name}.`, merged.missing);
        return providerView(name, await store.paymentProviders.save(merged.provider));
      });

      admin.get('/orders', async (request) => ({ data: (await store.orders.list(await orderQuery(request))).map(orderView) }));
      admin.get('/orders/export', async (request, reply) => {
        const orders = await store.orders.list({ ...(await orderQuery(request)), limit: 5_000 });
        return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="orders.csv"').send(ordersCsv(orders));
      });
      admin.get('/orders/:id', async (request) => orderView(await findOrder(param(request, 'id'))));
      admin.post('/orders/:id/refund', async (request) => {
        const input = parseAdminInput(orderRefundSchema, request.body);
        const order = await refundOrder(payments, param(request, 'id'), input.amountUsd === undefined ? undefined : usdToMicros(input.amountUsd));
        deps.logger.info({ orderId: order.id, refundedMicros: order.refundedMicros, actor: request.adminActor?.name }, 'order refunded');
        return orderView(order);
      });
      admin.post('/orders/:id/mark-paid', async (request) => {
        const order = await findOrder(param(request, 'id'));
        if (order.provider !== 'manual')
          throw invalidRequest(`Order ${order.id} is paid through ${order.provider}; only manual orders are marked paid by hand.`, 'id');
        const actor = request.adminActor?.name ?? 'an operator';
        await store.orders.transition(
          order.id,
          { from: ['pending', 'expired'] },
          'paid',
          { paidAt: deps.runtime.now(), paymentRef: `manual:${actor}` },
          (paid, ledger) => ledger.note(paid.userId, 0, `order ${paid.id} marked paid by ${actor}`),
        );
        await creditOrder(payments, order.id);
        return orderView(await findOrder(order.id));
      });

      admin.get('/promotion-codes', async () => ({ data: await store.promotions.list() }));
      admin.post('/promotion-codes', async (request, reply) => {
        const input = parseAdminInput(promotionCreateSchema, request.body);
        const created = await store.promotions.create({
          code: input.code,
          kind: input.kind,
          value: input.kind === 'fixed' ? usdToMicros(input.value) : input.value,
          usageLimit: input.usageLimit ?? null,
          expiresAt: input.expiresAt ? Date.parse(input.expiresAt) : null,
        });
        if (!created) throw new GatewayError('conflict', `The promotion code "${input.code}" exists.`);
        return reply.code(201).send(await store.promotions.find(input.code));
      });
      admin.delete('/promotion-codes/:code', async (request, reply) => {
        if (!(await store.promotions.delete(param(request, 'code')))) throw new GatewayError('not_found', 'No such promotion code.');
        return reply.code(204).send();
      });

      admin.patch('/users/:id/referral', async (request) => {
        const input = parseAdminInput(referralOverrideSchema, request.body);
        const user = await store.users.find(param(request, 'id'));
        if (!user) throw new GatewayError('not_found', `No user "${param(request, 'id')}" exists.`);
        await store.referrals.setRateOverride(user.id, input.ratePercent);
        return { userId: user.id, ...(await store.referrals.codeOf(user.id)) };
      });
    },
    { prefix: '/api/admin' },
  );

  async function findOrder(id: string) {
    const order = await store.orders.get(id);
    if (!order) throw new GatewayError('not_found', `No order "${id}" exists.`);
    return order;
  }

  async function orderQuery(request: FastifyRequest) {
    const query = parseAdminInput(orderQuerySchema, request.query);
    const user = query.user === undefined ? undefined : await store.users.find(query.user);
    if (query.user !== undefined && !user) throw invalidRequest(`user: no user "${query.user}" exists.`, 'user');
    return {
      ...(query.status ? { status: query.status } : {}),
      ...(user ? { userId: user.id } : {}),
      ...(query.provider ? { provider: query.provider } : {}),
      ...(query.from ? { from: Date.parse(query.from) } : {}),
      ...(query.to ? { to: Date.parse(query.to) } : {}),
      ...(query.limit ? { limit: query.limit } : {}),
    };
  }
}
