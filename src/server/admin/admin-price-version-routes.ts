import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.ts';
import { ANY_MODEL, type NewPriceVersion, type PriceScope, type PriceVersion } from '../../domain/price-version.ts';
import { catalogueChanges, defaultPriceCatalogue, priceCatalogueSchema, type PriceCatalogue } from '../../ledger/load-price-catalogue.ts';
import { priceFromUsd, priceToUsd } from '../../ledger/price-input.ts';
import { unpricedModels } from '../../billing/unpriced-models.ts';
import { instant } from '../../schemas/field-rules.ts';
import type { AppDeps } from '../app-deps.ts';
import { priceSchema } from './admin-schemas.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { recordAdminChange } from './record-admin-change.ts';
import { findChannelByReference } from './find-by-reference.ts';

export const priceHistoryQuerySchema = z.object({
  model: z.string().max(200).optional(),
  scope: z.enum(['catalogue', 'sell', 'group', 'cost']).optional(),
  ref: z.string().max(200).optional(),
});
export const channelDiscountSchema = z.strictObject({
  /** Percent off the catalogue price this channel is billed at (0 removes the discount). */
  percent: z.number('must be a number').finite().min(0, 'must not be negative').max(100, 'must be at most 100'),
  effectiveFrom: instant.optional(),
});
export { priceCatalogueSchema };

/**
 * Price lists beside `POST /prices` (the sell price): the catalogue (load a file, or the one the
 * gateway ships), a group's own price for a model, a channel's cost prices or its discount off the
 * catalogue, every version ever set, and the served models without a price. Nothing here edits a
 * version: each change adds one, effective now or from `effectiveFrom`.
 */
export function registerAdminPriceVersionRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const at = (effectiveFrom: number | undefined) => effectiveFrom ?? deps.runtime.now();
  const added = async (request: FastifyRequest, versions: PriceVersion[]) => {
    await deps.snapshot.reload();
    for (const version of versions) {
      await recordAdminChange(deps, request, {
        action: `price.${version.scope}`,
        targetKind: 'price',
        targetId: version.id,
        targetName: `${version.scope}:${version.ref}:${version.model}`,
        before: null,
        after: versionView(version),
      });
    }
  };

  admin.get('/prices/history', async (request) => {
    const query = parseAdminInput(priceHistoryQuerySchema, request.query);
    return { data: (await store.priceVersions.list(query)).map(versionView) };
  });
  admin.get('/prices/unpriced', async () => {
    const [channels, prices, versions] = await Promise.all([store.channels.list(), store.prices.list(), store.priceVersions.list()]);
    return { data: unpricedModels(channels, prices, versions), strictPricing: deps.access.strictPricing };
  });

  admin.post('/prices/catalogue', async (request, reply) =>
    reply.code(201).send(await loadCatalogue(request, parseAdminInput(priceCatalogueSchema, request.body))),
  );
  admin.post('/prices/catalogue/default', async (request, reply) => reply.code(201).send(await loadCatalogue(request, defaultPriceCatalogue())));
  const loadCatalogue = async (request: FastifyRequest, catalogue: PriceCatalogue) => {
    const current = new Map<string, PriceVersion>();
    for (const version of await store.priceVersions.list({ scope: 'catalogue' })) current.set(version.model, version);
    const changes = catalogueChanges(catalogue, current, deps.runtime.now());
    const versions = await appendAll(changes.added);
    await added(request, versions);
    return { source: catalogue.source, date: catalogue.date, added: versions.map(versionView), unchanged: changes.unchanged };
  };
  const appendAll = async (versions: NewPriceVersion[]) => {
    const stored: PriceVersion[] = [];
    for (const version of versions) stored.push(await store.priceVersions.append(version));
    return stored;
  };

  admin.post('/prices/groups/:group', async (request, reply) => {
    const group = await store.groups.get((request.params as { group: string }).group);
    if (!group) throw new GatewayError('not_found', `No group "${(request.params as { group: string }).group}" exists.`);
    const version = await appendPrice(request, 'group', group.name);
    return reply.code(201).send(versionView(version));
  });
  admin.post('/prices/channels/:channel', async (request, reply) => {
    const channel = await requireChannel(request);
    return reply.code(201).send(versionView(await appendPrice(request, 'cost', channel.id)));
  });
  admin.post('/prices/channels/:channel/discount', async (request, reply) => {
    const channel = await requireChannel(request);
    const input = parseAdminInput(channelDiscountSchema, request.body);
    const version = await store.priceVersions.append({
      scope: 'cost',
      ref: channel.id,
      model: ANY_MODEL,
      price: { inputPerMillion: 0, outputPerMillion: 0, cacheReadPerMillion: null, cacheWritePerMillion: null },
      discountBps: Math.round(input.percent * 100),
      effectiveFrom: at(input.effectiveFrom),
      source: 'admin',
    });
    await added(request, [version]);
    return reply.code(201).send(versionView(version));
  });

  const appendPrice = async (request: FastifyRequest, scope: PriceScope, ref: string) => {
    const { model, effectiveFrom, ...figures } = parseAdminInput(priceSchema, request.body);
    const { model: _model, ...price } = priceFromUsd(model, figures);
    const version = await store.priceVersions.append({ scope, ref, model, price, effectiveFrom: at(effectiveFrom), source: 'admin' });
    await added(request, [version]);
    return version;
  };
  const requireChannel = async (request: FastifyRequest) => {
    const reference = (request.params as { channel: string }).channel;
    const channel = await findChannelByReference(store, reference);
    if (!channel) throw new GatewayError('not_found', `No channel "${reference}" exists.`);
    return channel;
  };
}

/** A version as the API shows it: figures in USD, times in ISO 8601. */
export function versionView(version: PriceVersion) {
  return {
    id: version.id,
    scope: version.scope,
    ref: version.ref,
    model: version.model,
    ...(version.discountBps === undefined ? priceToUsd(version.price) : { discountPercent: version.discountBps / 100 }),
    effectiveFrom: new Date(version.effectiveFrom).toISOString(),
    createdAt: new Date(version.createdAt).toISOString(),
    source: version.source,
  };
}
