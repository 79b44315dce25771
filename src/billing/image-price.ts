import type { ImagePrice, ModelPrice } from '../domain/model-price.ts';
import { microsToUsd, usdToMicros } from '../domain/money.ts';

/** The image price fields of `POST /api/admin/prices` and the config file, in USD. */
export interface ImagePriceInput {
  perImage?: number | Record<string, Record<string, number>> | null;
  imageInput?: number | null;
  imageOutput?: number | null;
}

/** `{ images }` when set, for spreading into a NewModelPrice (an unset field stays absent, as the store returns it). */
export function withImagePrice(images: ImagePrice | undefined): { images?: ImagePrice } {
  return images === undefined ? {} : { images };
}

/** USD as the operator states them → micro-USD as stored; undefined when no image figure is set. */
export function imagePriceFromUsd(input: ImagePriceInput): ImagePrice | undefined {
  const price: ImagePrice = {};
  if (typeof input.perImage === 'number') price.perImage = usdToMicros(input.perImage);
  else if (input.perImage != null) price.perImage = mapTable(input.perImage, usdToMicros);
  if (input.imageInput != null) price.inputPerMillion = usdToMicros(input.imageInput);
  if (input.imageOutput != null) price.outputPerMillion = usdToMicros(input.imageOutput);
  return Object.keys(price).length === 0 ? undefined : price;
}

/** The stored figures back in the API's USD terms (only those set). */
export function imagePriceToUsd(images: ImagePrice | undefined): {
  perImage?: number | Record<string, Record<string, number>>;
  imageInput?: number;
  imageOutput?: number;
} {
  if (images === undefined) return {};
  return {
    ...(images.perImage === undefined
      ? {}
      : { perImage: typeof images.perImage === 'number' ? microsToUsd(images.perImage) : mapTable(images.perImage, microsToUsd) }),
    ...(images.inputPerMillion === undefined ? {} : { imageInput: microsToUsd(images.inputPerMillion) }),
    ...(images.outputPerMillion === undefined ? {} : { imageOutput: microsToUsd(images.outputPerMillion) }),
  };
}

function mapTable(table: Record<string, Record<string, number>>, convert: (value: number) => number): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.entries(table).map(([size, qualities]) => [
      size,
      Object.fromEntries(Object.entries(qualities).map(([quality, value]) => [quality, convert(value)])),
    ]),
  );
}

/**
 * The price of one image at `size` × `quality` in micro-USD: the flat figure, or the table's
 * entry (`auto` stands for a size or quality the request left to the upstream). Undefined when the
 * model has no per-image price or its table has no such entry — the caller refuses that request
 * rather than guess a tier.
 */
export function perImageMicros(price: ModelPrice | undefined, size: string, quality: string): number | undefined {
  const perImage = price?.images?.perImage;
  if (perImage === undefined) return undefined;
  if (typeof perImage === 'number') return perImage;
  return perImage[size]?.[quality];
}

/**
 * The per-image figure a delivered image is billed at: its exact tier when the table has it, else
 * the dearest entry its size and quality could be (`auto` matching any), else the dearest entry of
 * the table. An image whose tier the table lacks (an `image_generation` tool call inside
 * `/v1/responses` that names no size or quality, so `auto`/`auto`) is never billed $0: the
 * gateway charges the highest tier it could have been rather than nothing.
 */
export function billedPerImageMicros(price: ModelPrice | undefined, size: string, quality: string): number | undefined {
  const exact = perImageMicros(price, size, quality);
  if (exact !== undefined) return exact;
  const perImage = price?.images?.perImage;
  if (perImage === undefined || typeof perImage === 'number') return undefined;
  let dearest: number | undefined;
  for (const [tableSize, qualities] of Object.entries(perImage)) {
    if (size !== 'auto' && tableSize !== size && tableSize !== 'auto') continue;
    for (const [tableQuality, micros] of Object.entries(qualities)) {
      if (quality !== 'auto' && tableQuality !== quality && tableQuality !== 'auto') continue;
      if (dearest === undefined || micros > dearest) dearest = micros;
    }
  }
  return dearest ?? maxPerImageMicros(price);
}

/** The dearest image the model's table has: what a request is held for when its tier is `auto`. */
export function maxPerImageMicros(price: ModelPrice | undefined): number | undefined {
  const perImage = price?.images?.perImage;
  if (perImage === undefined) return undefined;
  if (typeof perImage === 'number') return perImage;
  const all = Object.values(perImage).flatMap((qualities) => Object.values(qualities));
  return all.length === 0 ? undefined : Math.max(...all);
}

/** Sizes × qualities the model is priced for, to name in a refusal. */
export function pricedImageTiers(price: ModelPrice | undefined): string[] {
  const perImage = price?.images?.perImage;
  if (perImage === undefined || typeof perImage === 'number') return [];
  return Object.entries(perImage).flatMap(([size, qualities]) => Object.keys(qualities).map((quality) => `${size}/${quality}`));
}
