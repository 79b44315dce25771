import type { FastifyInstance, FastifyRequest } from 'fastify';
import { priceFromUsd } from '../../ledger/price-input.ts';
import type { AppDeps } from '../app-deps.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { notFound, param } from './admin-route-helpers.ts';
import { priceSchema } from './admin-schemas.ts';
import { priceView } from './admin-views.ts';
import { recordAdminChange, type AdminChange } from './record-admin-change.ts';

/** The admin API's sell prices (USD per million tokens): list, set (a new version, effective now or from `effectiveFrom`), delete. */
export function registerAdminPriceRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const changed = () => deps.snapshot.reload();
  const audit = (request: FastifyRequest, change: AdminChange) => recordAdminChange(deps, request, change);

  admin.get('/prices', async () => ({ data: (await store.prices.list()).map(priceView) }));
  admin.post('/prices', async (request, reply) => {
    const input = parseAdminInput(priceSchema, request.body);
    const previous = (await store.prices.list()).find((price) => price.model === input.model);
    const { model, effectiveFrom, ...figures } = input;
    const price = await store.prices.upsert(priceFromUsd(model, figures), { source: 'admin', ...(effectiveFrom === undefined ? {} : { effectiveFrom }) });
    await changed();
    await audit(request, {
      action: previous ? 'price.update' : 'price.create',
      targetKind: 'price',
      targetId: price.model,
      targetName: price.model,
      before: previous ? priceView(previous) : null,
      after: priceView(price),
    });
    return reply.code(201).send(priceView(price));
  });
  admin.delete('/prices/:model', async (request, reply) => {
    const model = param(request, 'model');
    const previous = (await store.prices.list()).find((price) => price.model === model);
    if (!(await store.prices.delete(model))) throw notFound('price for model', model);
    await changed();
    await audit(request, {
      action: 'price.delete',
      targetKind: 'price',
      targetId: model,
      targetName: model,
      before: previous ? priceView(previous) : null,
      after: null,
    });
    return reply.code(204).send();
  });
}
