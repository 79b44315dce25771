import { z } from 'zod';
import { priceFields } from '../schemas/entity-fields.ts';
import { describeIssue } from '../schemas/describe-issue.ts';
import type { NewPriceVersion, PriceVersion } from '../domain/price-version.ts';
import { priceFromUsd } from './price-input.ts';
import defaultCatalogue from './default-price-catalogue.json' with { type: 'json' };

/** A price catalogue file: where its figures come from, as of when, and one list price per model. */
export const priceCatalogueSchema = z.strictObject({
  source: z.string().min(1).max(1_000),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 2025-11-01'),
  units: z.string().max(2_000).optional(),
  models: z
    .array(z.strictObject({ ...priceFields, provider: z.string().max(40).optional() }))
    .min(1)
    .max(5_000),
});

export type PriceCatalogue = z.infer<typeof priceCatalogueSchema>;

/** The catalogue shipped with the gateway (src/ledger/default-price-catalogue.json). */
export function defaultPriceCatalogue(): PriceCatalogue {
  return parsePriceCatalogue(defaultCatalogue);
}

/** A catalogue file checked field by field; a bad one is refused whole, naming the first problem. */
export function parsePriceCatalogue(value: unknown): PriceCatalogue {
  const parsed = priceCatalogueSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue === undefined) throw new TypeError('price catalogue: not a catalogue');
  const given = issue.path.reduce<unknown>(
    (at, step) => (at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[step] : undefined),
    value,
  );
  throw new TypeError(`price catalogue: ${issue.path.join('.') || 'the file'} ${describeIssue(issue, given)}`);
}

export interface CatalogueChanges {
  added: NewPriceVersion[];
  unchanged: string[];
}

/**
 * The catalogue versions a file adds: one per model whose figures differ from its current
 * catalogue version (`current`: the latest per model), none for a model already at them — so
 * loading the same file twice changes nothing, and an update is history, not an overwrite.
 */
export function catalogueChanges(catalogue: PriceCatalogue, current: ReadonlyMap<string, PriceVersion>, effectiveFrom: number): CatalogueChanges {
  const added: NewPriceVersion[] = [];
  const unchanged: string[] = [];
  const source = `${catalogue.source} (${catalogue.date})`;
  for (const { model, provider: _provider, ...figures } of catalogue.models) {
    const { model: _model, ...price } = priceFromUsd(model, figures);
    const existing = current.get(model);
    if (existing !== undefined && JSON.stringify(existing.price) === JSON.stringify(price)) unchanged.push(model);
    else added.push({ scope: 'catalogue', ref: '', model, price, effectiveFrom, source });
  }
  return { added, unchanged };
}
