import type { FastifyInstance, FastifyRequest } from 'fastify';
import { imagePriceFromUsd, withImagePrice } from '../../billing/image-price.ts';
import { mediaPriceFromUsd } from '../../billing/media-price.ts';
import { usdToMicros } from '../../domain/money.ts';
import type { AppDeps } from '../app-deps.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { notFound, param } from './admin-route-helpers.ts';
import { priceSchema } from './admin-schemas.ts';
import { priceView } from './admin-views.ts';
import { recordAdminChange, type AdminChange } from './record-admin-change.ts';

/** The admin API's prices (USD per million tokens): list, set (create or replace), delete. */
export function registerAdminPriceRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const changed = () => deps.snapshot.reload();
  const audit = (request: FastifyRequest, change: AdminChange) => recordAdminChange(deps, request, change);

  admin.get('/prices', async () => ({ data: (await store.prices.list()).map(priceView) }));
  admin.post('/prices', async (request, reply) => {
    const input = parseAdminInput(priceSchema, request.body);
    const previous = (await store.prices.list()).find((price) => price.model === input.model);
    const price = await store.prices.upsert({
      model: input.model,
      inputPerMillion: usdToMicros(input.input),
      outputPerMillion: usdToMicros(input.output),
      cacheReadPerMillion: input.cacheRead == null ? null : usdToMicros(input.cacheRead),
      cacheWritePerMillion: input.cacheWrite == null ? null : usdToMicros(input.cacheWrite),
      ...(input.webSearch == null ? {} : { webSearchPerThousand: usdToMicros(input.webSearch) }),
      ...withImagePrice(imagePriceFromUsd(input)),
      ...mediaPriceFromUsd(input),
    });
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
}
