import type { ImageUsage, MediaUsage, Usage } from '../core/usage.ts';
import type { ModelPrice, PriceTier } from '../domain/model-price.ts';
import { billedPerImageMicros } from './image-price.ts';
import { billableTokens, boundedChargeMicros, MAX_PRICE_MULTIPLIER } from '../domain/money.ts';

/**
 * The exact cost of one request in integer micro-USD. Prices are micro-USD per million
 * tokens; each token class is billed at its own price (cache reads and writes fall back to
 * the input price when the model has none, 1-hour writes to the 5-minute price, reasoning to
 * the output price); past a long-context tier's threshold the whole request is billed at the
 * tier's rates. Rounded once, at the end, half up — so a thousand one-token requests cost the
 * same as their sum to within one micro-unit each, never drifting through floating point.
 * Whatever the inputs (a negative or absurd count from an upstream, a multiplier stored before
 * bounds existed), the result is a safe integer from 0 to MAX_CHARGE_MICROS: a charge can never
 * credit a balance or poison the charge batch.
 */
export function computeCostMicros(usage: Usage, price: ModelPrice, multiplier = 1): number {
  if (price.extra?.free) return 0;
  const factor = Number.isFinite(multiplier) && multiplier > 0 ? Math.min(multiplier, MAX_PRICE_MULTIPLIER) : multiplier === 0 ? 0 : 1;
  const picoUnits = tokenPicoUnits(usage, price) + imagePicoUnits(usage.images, price) + mediaPicoUnits(usage.media, price);
  const scaled = factor === 1 ? picoUnits : picoUnits * factor;
  return boundedChargeMicros((scaled + 500_000) / 1_000_000);
}

/** The rates a request is billed at: the highest long-context tier its input passes, else the base. */
export function selectTier(price: ModelPrice, inputTokens: number): PriceTier | undefined {
  let chosen: PriceTier | undefined;
  for (const tier of price.extra?.tiers ?? []) {
    if (inputTokens > tier.aboveInputTokens && (chosen === undefined || tier.aboveInputTokens > chosen.aboveInputTokens)) chosen = tier;
  }
  return chosen;
}

function tokenPicoUnits(usage: Usage, price: ModelPrice): number {
  const input = billableTokens(usage.inputTokens);
  // Cache counts are billed as reported (the pipeline bounds them by the input first, with a warning).
  const cacheRead = billableTokens(usage.cacheReadTokens);
  const cacheWrite = billableTokens(usage.cacheWriteTokens);
  const write1h = Math.min(billableTokens(usage.cacheWrite1hTokens), cacheWrite);
  const output = billableTokens(usage.outputTokens);
  const reasoningRate = price.extra?.reasoningPerMillion;
  const reasoning = reasoningRate === undefined ? 0 : Math.min(billableTokens(usage.reasoningTokens), output);
  const tier = selectTier(price, input);
  const inputRate = tier?.inputPerMillion ?? price.inputPerMillion;
  const write5mRate = tier?.cacheWritePerMillion ?? price.cacheWritePerMillion ?? inputRate;
  // Every product stays below 2^53 for any realistic request (1e7 tokens × 1e9 µUSD/M).
  return (
    Math.max(0, input - cacheRead - cacheWrite) * rate(inputRate) +
    cacheRead * rate(tier?.cacheReadPerMillion ?? price.cacheReadPerMillion ?? inputRate) +
    (cacheWrite - write1h) * rate(write5mRate) +
    write1h * rate(tier?.cacheWrite1hPerMillion ?? price.extra?.cacheWrite1hPerMillion ?? write5mRate) +
    (output - reasoning) * rate(tier?.outputPerMillion ?? price.outputPerMillion) +
    reasoning * rate(reasoningRate ?? 0) +
    // Per 1,000 searches rather than per million tokens: 1,000 times the weight of a token.
    billableTokens(usage.webSearchRequests) * rate(price.webSearchPerThousand ?? 0) * 1_000 +
    // A fee per request is micro-USD per one request: a million times the weight of a token's rate.
    rate(price.extra?.perRequest ?? 0) * 1_000_000
  );
}

function rate(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Images at the model's image price: by image tokens when the upstream counted them and the model
 * has a per-token image price (how OpenAI bills gpt-image), otherwise per image at the reply's
 * size × quality. The pipeline refuses a tier the model has no price for before any upstream call;
 * an image that still arrives with an unpriced tier (an `auto` tool call) is billed at the dearest
 * tier it could be, never $0 (`billedPerImageMicros`).
 */
function imagePicoUnits(images: ImageUsage | undefined, price: ModelPrice): number {
  if (images === undefined) return 0;
  const tokenPrice = price.images?.outputPerMillion;
  if (tokenPrice !== undefined && images.outputTokens !== undefined) {
    return billableTokens(images.inputTokens) * rate(price.images?.inputPerMillion ?? 0) + billableTokens(images.outputTokens) * rate(tokenPrice);
  }
  // A per-image figure is micro-USD per one image: a million times the weight of a token's rate.
  return billableTokens(images.count) * rate(billedPerImageMicros(price, images.size, images.quality) ?? 0) * 1_000_000;
}

/**
 * Audio and rerank at the model's media price: whole seconds (rounded up), characters and audio
 * tokens per million, search units each. A per-unit figure (second, search unit) weighs a million
 * times a per-million rate.
 */
function mediaPicoUnits(media: MediaUsage | undefined, price: ModelPrice): number {
  const rates = price.media;
  if (media === undefined || rates === undefined) return 0;
  return (
    billableTokens(Math.ceil(media.seconds ?? 0)) * rate(rates.perSecond ?? 0) * 1_000_000 +
    billableTokens(media.characters) * rate(rates.perMillionCharacters ?? 0) +
    billableTokens(media.audioInputTokens) * rate(rates.audioInputPerMillion ?? 0) +
    billableTokens(media.audioOutputTokens) * rate(rates.audioOutputPerMillion ?? 0) +
    billableTokens(media.searchUnits) * rate(rates.perSearchUnit ?? 0) * 1_000_000
  );
}
