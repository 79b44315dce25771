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
