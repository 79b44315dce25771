import type { ExtraRates, NewModelPrice, PriceTier } from '../domain/model-price.ts';
import { microsToUsd, usdToMicros } from '../domain/money.ts';
import { imagePriceFromUsd, imagePriceToUsd, type ImagePriceInput, withImagePrice } from '../billing/image-price.ts';
import { mediaPriceFromUsd, mediaPriceToUsd, type MediaPriceInput } from '../billing/media-price.ts';

/** A price as operators state it (USD per million tokens; the admin API, the config file, the catalogue file). */
export interface PriceInput extends ImagePriceInput, MediaPriceInput {
  input: number;
  output: number;
  cacheRead?: number | null;
  cacheWrite?: number | null;
  cacheWrite1h?: number | null;
  reasoning?: number | null;
  webSearch?: number | null;
  perRequest?: number | null;
  tiers?: TierInput[];
  free?: boolean;
}

export interface TierInput {
  aboveInputTokens: number;
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  cacheWrite1h?: number;
}

/** USD as stated → micro-USD as stored; a class left unset stays absent (it falls back, see compute-cost.ts). */
export function priceFromUsd(model: string, input: PriceInput): NewModelPrice {
  const extra = extraFromUsd(input);
  return {
    model,
    inputPerMillion: usdToMicros(input.input),
    outputPerMillion: usdToMicros(input.output),
    cacheReadPerMillion: input.cacheRead == null ? null : usdToMicros(input.cacheRead),
    cacheWritePerMillion: input.cacheWrite == null ? null : usdToMicros(input.cacheWrite),
    ...(input.webSearch == null ? {} : { webSearchPerThousand: usdToMicros(input.webSearch) }),
    ...withImagePrice(imagePriceFromUsd(input)),
    ...mediaPriceFromUsd(input),
    ...(extra === undefined ? {} : { extra }),
  };
}

function extraFromUsd(input: PriceInput): ExtraRates | undefined {
  const extra: ExtraRates = {};
  if (input.cacheWrite1h != null) extra.cacheWrite1hPerMillion = usdToMicros(input.cacheWrite1h);
  if (input.reasoning != null) extra.reasoningPerMillion = usdToMicros(input.reasoning);
  if (input.perRequest != null) extra.perRequest = usdToMicros(input.perRequest);
  if (input.tiers !== undefined && input.tiers.length > 0) extra.tiers = input.tiers.map(tierFromUsd);
  if (input.free === true) extra.free = true;
  return Object.keys(extra).length === 0 ? undefined : extra;
}

function tierFromUsd(tier: TierInput): PriceTier {
  return {
    aboveInputTokens: tier.aboveInputTokens,
    inputPerMillion: usdToMicros(tier.input),
    outputPerMillion: usdToMicros(tier.output),
    ...(tier.cacheRead === undefined ? {} : { cacheReadPerMillion: usdToMicros(tier.cacheRead) }),
    ...(tier.cacheWrite === undefined ? {} : { cacheWritePerMillion: usdToMicros(tier.cacheWrite) }),
    ...(tier.cacheWrite1h === undefined ? {} : { cacheWrite1hPerMillion: usdToMicros(tier.cacheWrite1h) }),
  };
}

/** The stored figures back in USD, only the classes that are set (the answer of the price routes). */
export function priceToUsd(price: Omit<NewModelPrice, 'model'>): Record<string, unknown> {
  const extra = price.extra ?? {};
  return {
    input: microsToUsd(price.inputPerMillion),
    output: microsToUsd(price.outputPerMillion),
    cacheRead: price.cacheReadPerMillion === null ? null : microsToUsd(price.cacheReadPerMillion),
    cacheWrite: price.cacheWritePerMillion === null ? null : microsToUsd(price.cacheWritePerMillion),
    ...(price.webSearchPerThousand == null ? {} : { webSearch: microsToUsd(price.webSearchPerThousand) }),
    ...imagePriceToUsd(price.images),
    ...mediaPriceToUsd(price.media),
    ...(extra.cacheWrite1hPerMillion === undefined ? {} : { cacheWrite1h: microsToUsd(extra.cacheWrite1hPerMillion) }),
    ...(extra.reasoningPerMillion === undefined ? {} : { reasoning: microsToUsd(extra.reasoningPerMillion) }),
    ...(extra.perRequest === undefined ? {} : { perRequest: microsToUsd(extra.perRequest) }),
    ...(extra.tiers === undefined ? {} : { tiers: extra.tiers.map(tierToUsd) }),
    ...(extra.free ? { free: true } : {}),
  };
}

function tierToUsd(tier: PriceTier): TierInput {
  return {
    aboveInputTokens: tier.aboveInputTokens,
    input: microsToUsd(tier.inputPerMillion),
    output: microsToUsd(tier.outputPerMillion),
    ...(tier.cacheReadPerMillion === undefined ? {} : { cacheRead: microsToUsd(tier.cacheReadPerMillion) }),
    ...(tier.cacheWritePerMillion === undefined ? {} : { cacheWrite: microsToUsd(tier.cacheWritePerMillion) }),
    ...(tier.cacheWrite1hPerMillion === undefined ? {} : { cacheWrite1h: microsToUsd(tier.cacheWrite1hPerMillion) }),
  };
}
