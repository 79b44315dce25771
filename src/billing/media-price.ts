import type { MediaPrice } from '../domain/model-price.ts';
import { microsToUsd, usdToMicros } from '../domain/money.ts';

/** The audio and rerank price fields of `POST /api/admin/prices` and the config file, in USD. */
export interface MediaPriceInput {
  perSecond?: number | null;
  perMillionCharacters?: number | null;
  audioInput?: number | null;
  audioOutput?: number | null;
  perSearchUnit?: number | null;
}

/** The API's name for each stored figure (USD in the API, micro-USD stored). */
const FIELDS = [
  ['perSecond', 'perSecond'],
  ['perMillionCharacters', 'perMillionCharacters'],
  ['audioInput', 'audioInputPerMillion'],
  ['audioOutput', 'audioOutputPerMillion'],
  ['perSearchUnit', 'perSearchUnit'],
] as const satisfies ReadonlyArray<readonly [keyof MediaPriceInput, keyof MediaPrice]>;

/** `{ media }` when any audio or rerank figure is set (an unset field stays absent, as the store returns it). */
export function mediaPriceFromUsd(input: MediaPriceInput): { media?: MediaPrice } {
  const media: MediaPrice = {};
  for (const [field, stored] of FIELDS) {
    const value = input[field];
    if (value != null) media[stored] = usdToMicros(value);
  }
  return Object.keys(media).length === 0 ? {} : { media };
}

/** The stored figures back in the API's USD terms (only those set). */
export function mediaPriceToUsd(media: MediaPrice | undefined): Partial<Record<keyof MediaPriceInput, number>> {
  const usd: Partial<Record<keyof MediaPriceInput, number>> = {};
  for (const [field, stored] of FIELDS) {
    const value = media?.[stored];
    if (value !== undefined) usd[field] = microsToUsd(value);
  }
  return usd;
}
