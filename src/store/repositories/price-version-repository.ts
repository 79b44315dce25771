import type { Kysely, Selectable } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';
import type { PriceVersionsTable } from '../ledger-tables.ts';
import type { NewPriceVersion, PriceScope, PriceVersion } from '../../domain/price-version.ts';
import type { PriceVersionRepository } from '../store.ts';
import type { StoreContext } from '../store-context.ts';

/** Price versions are only added, never changed: a charge's version keeps meaning what it billed. */
export function createPriceVersionRepository(context: StoreContext): PriceVersionRepository {
  const { db } = context;
  return {
    append: (version) => appendPriceVersion(context, db, version),
    async list(filter = {}) {
      let query = db.selectFrom('price_versions').selectAll();
      if (filter.scope !== undefined) query = query.where('scope', '=', filter.scope);
      if (filter.ref !== undefined) query = query.where('ref', '=', filter.ref);
      if (filter.model !== undefined) query = query.where('model', '=', filter.model);
      const rows = await query.orderBy('effective_from').orderBy('created_at').orderBy('id').execute();
      return rows.map(toPriceVersion);
    },
  };
}

/** Adds one version (inside the caller's transaction when `db` is one). */
export async function appendPriceVersion(
  context: Pick<StoreContext, 'now' | 'generateId'>,
  db: Kysely<DatabaseSchema>,
  version: NewPriceVersion,
): Promise<PriceVersion> {
  const row: Selectable<PriceVersionsTable> = {
    id: context.generateId('pv'),
    scope: version.scope,
    ref: version.ref,
    model: version.model,
    price: JSON.stringify(version.price),
    discount_bps: version.discountBps ?? null,
    effective_from: version.effectiveFrom,
    created_at: context.now(),
    source: version.source,
  };
  await db.insertInto('price_versions').values(row).execute();
  return toPriceVersion(row);
}

function toPriceVersion(row: Selectable<PriceVersionsTable>): PriceVersion {
  const version: PriceVersion = {
    id: row.id,
    scope: row.scope as PriceScope,
    ref: row.ref,
    model: row.model,
    price: JSON.parse(row.price) as PriceVersion['price'],
    effectiveFrom: Number(row.effective_from),
    createdAt: Number(row.created_at),
    source: row.source,
  };
  if (row.discount_bps !== null) version.discountBps = Number(row.discount_bps);
  return version;
}
