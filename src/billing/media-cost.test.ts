import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelPrice } from '../domain/model-price.ts';
import { computeCostMicros } from './compute-cost.ts';
import { mediaPriceFromUsd, mediaPriceToUsd } from './media-price.ts';

const base: ModelPrice = {
  model: 'm',
  inputPerMillion: 2_500_000,
  outputPerMillion: 10_000_000,
  cacheReadPerMillion: null,
  cacheWritePerMillion: null,
  updatedAt: 0,
};

test('audio and rerank usage is priced to the micro-USD', () => {
  const price: ModelPrice = {
    ...base,
    ...mediaPriceFromUsd({ perSecond: 0.0001, perMillionCharacters: 15, audioInput: 6, audioOutput: 12, perSearchUnit: 0.002 }),
  };
  // 3.2 seconds bill as 4 whole seconds at 100 µUSD.
  assert.equal(computeCostMicros({ inputTokens: 0, outputTokens: 0, media: { seconds: 3.2 } }, price), 400);
  // 44 characters at $15 per million: 660 µUSD.
  assert.equal(computeCostMicros({ inputTokens: 0, outputTokens: 0, media: { characters: 44 } }, price), 660);
  // 40 audio tokens at $6/M + 10 output text tokens at $10/M + 5 audio output tokens at $12/M.
  assert.equal(computeCostMicros({ inputTokens: 0, outputTokens: 10, media: { audioInputTokens: 40, audioOutputTokens: 5 } }, price), 240 + 100 + 60);
  assert.equal(computeCostMicros({ inputTokens: 0, outputTokens: 0, media: { searchUnits: 3 } }, price, 1.5), 9_000);
  // An absurd or negative figure from an upstream never credits.
  assert.equal(computeCostMicros({ inputTokens: 0, outputTokens: 0, media: { seconds: -5, searchUnits: Number.NaN } }, price), 0);
});

test("media prices round-trip between the API's USD and stored micro-USD", () => {
  const stored = mediaPriceFromUsd({ perSecond: 0.0001, perSearchUnit: 0.002, perMillionCharacters: null });
  assert.deepEqual(stored, { media: { perSecond: 100, perSearchUnit: 2_000 } });
  assert.deepEqual(mediaPriceToUsd(stored.media), { perSecond: 0.0001, perSearchUnit: 0.002 });
  assert.deepEqual(mediaPriceFromUsd({}), {});
});

test('an image whose tier the table lacks (an `auto` tool call) bills the dearest tier it could be, never $0', async () => {
  const { imagePriceFromUsd } = await import('./image-price.ts');
  const images = imagePriceFromUsd({ perImage: { '1024x1024': { low: 0.011, medium: 0.042, high: 0.167 }, '1536x1024': { low: 0.016, high: 0.25 } } });
  const price: ModelPrice = { ...base, inputPerMillion: 0, outputPerMillion: 0, ...(images === undefined ? {} : { images }) };
  const cost = (size: string, quality: string, count = 1) => computeCostMicros({ inputTokens: 0, outputTokens: 0, images: { count, size, quality } }, price);
  // The exact tier when priced.
  assert.equal(cost('1024x1024', 'medium'), 42_000);
  // `auto` / `auto`: the dearest entry of the whole table, per image.
  assert.equal(cost('auto', 'auto', 2), 500_000);
  // A known size with `auto` quality: the dearest quality of that size.
  assert.equal(cost('1024x1024', 'auto'), 167_000);
  // A quality the size lacks: the dearest tier that quality could be, else the table's dearest.
  assert.equal(cost('auto', 'medium'), 42_000);
  assert.equal(cost('1536x1024', 'medium'), 250_000);
  // A flat figure stays flat.
  const flat: ModelPrice = { ...base, images: { perImage: 40_000 } };
  assert.equal(computeCostMicros({ inputTokens: 0, outputTokens: 0, images: { count: 3, size: 'auto', quality: 'auto' } }, flat), 120_000);
});
