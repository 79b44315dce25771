import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateReservationMicros } from './estimate-reservation.ts';
import { DEFAULT_RESERVED_OUTPUT_TOKENS, maxOutputTokensFor } from './model-output-limits.ts';

const price = { model: 'm', inputPerMillion: 0, outputPerMillion: 1_000_000, cacheReadPerMillion: null, cacheWritePerMillion: null, updatedAt: 0 };

test('known families reserve their documented maximum output; unknown models the configured default', () => {
  assert.equal(maxOutputTokensFor('gpt-4o-mini'), 16_384);
  assert.equal(maxOutputTokensFor('claude-sonnet-4-20250514'), 64_000);
  assert.equal(maxOutputTokensFor('models/gemini-2.5-pro'), 65_536);
  assert.equal(maxOutputTokensFor('o3-mini'), 100_000);
  assert.equal(maxOutputTokensFor('house-model'), DEFAULT_RESERVED_OUTPUT_TOKENS);
  assert.equal(maxOutputTokensFor('house-model', 1_000), 1_000);
});

test('an uncapped request holds the uncapped output (not 4,096); a capped one its cap, times its alternatives', () => {
  // $1 per output token (1e6 µUSD per million = 1 µUSD per token): the reservation in µUSD is the output tokens held.
  assert.equal(estimateReservationMicros({ inputTokens: 0, maxOutputTokens: undefined }, price, 1, 16_384), 16_384);
  assert.equal(estimateReservationMicros({ inputTokens: 0, maxOutputTokens: undefined }, price, 1), DEFAULT_RESERVED_OUTPUT_TOKENS);
  assert.equal(estimateReservationMicros({ inputTokens: 0, maxOutputTokens: 100, candidateCount: 3 }, price, 1, 16_384), 300);
});
