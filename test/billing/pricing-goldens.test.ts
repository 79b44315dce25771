import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { computeCostMicros } from '../../src/billing/compute-cost.ts';
import { estimateReservationMicros } from '../../src/billing/estimate-reservation.ts';
import { formatUsd } from '../../src/billing/format-usd.ts';
import type { ModelPrice } from '../../src/domain/model-price.ts';

const price = (input: number, output: number, cacheRead: number | null = null, cacheWrite: number | null = null): ModelPrice => ({
  model: 'm',
  inputPerMillion: input,
  outputPerMillion: output,
  cacheReadPerMillion: cacheRead,
  cacheWritePerMillion: cacheWrite,
  updatedAt: 0,
});

describe('pricing math (integer micro-USD)', () => {
  // [case, usage, price (µUSD per million tokens), multiplier, expected µUSD]
  const goldens: Array<[string, Parameters<typeof computeCostMicros>[0], ModelPrice, number, number]> = [
    ['gpt-4o list price', { inputTokens: 1_234, outputTokens: 567 }, price(2_500_000, 10_000_000), 1, 8_755],
    ['one million of each', { inputTokens: 1_000_000, outputTokens: 1_000_000 }, price(150_000, 600_000), 1, 750_000],
    [
      'cache reads and writes at their own prices',
      { inputTokens: 10_000, outputTokens: 500, cacheReadTokens: 8_000, cacheWriteTokens: 1_000 },
      price(3_000_000, 15_000_000, 300_000, 3_750_000),
      1,
      16_650,
    ],
    ['cache tokens fall back to the input price', { inputTokens: 10_000, outputTokens: 0, cacheReadTokens: 8_000 }, price(3_000_000, 0), 1, 30_000],
    [
      'group multiplier 1.5 applied before the single rounding',
      { inputTokens: 10_000, outputTokens: 500, cacheReadTokens: 8_000, cacheWriteTokens: 1_000 },
      price(3_000_000, 15_000_000, 300_000, 3_750_000),
      1.5,
      24_975,
    ],
    ['0.15 µUSD rounds down to 0', { inputTokens: 1, outputTokens: 0 }, price(150_000, 0), 1, 0],
    ['1.5 µUSD rounds half up to 2', { inputTokens: 3, outputTokens: 0 }, price(500_000, 0), 1, 2],
    ['reasoning is part of output, not billed twice', { inputTokens: 0, outputTokens: 1_000, reasoningTokens: 800 }, price(0, 2_000_000), 1, 2_000],
    ['cached counts above the input total never go negative', { inputTokens: 10, outputTokens: 0, cacheReadTokens: 50 }, price(1_000_000, 0, 100_000), 1, 5],
    ['a free model', { inputTokens: 123_456, outputTokens: 7_890 }, price(0, 0), 1, 0],
    ['a 10M-token request stays exact', { inputTokens: 10_000_000, outputTokens: 1 }, price(60_000_000, 1), 1, 600_000_000],
  ];

  for (const [name, usage, modelPrice, multiplier, expected] of goldens) {
    test(name, () => {
      const cost = computeCostMicros(usage, modelPrice, multiplier);
      assert.equal(cost, expected);
      assert.ok(Number.isSafeInteger(cost));
    });
  }

  test('a thousand requests sum exactly, with no floating drift', () => {
    let total = 0;
    for (let index = 0; index < 1_000; index += 1) total += computeCostMicros({ inputTokens: 1_234, outputTokens: 567 }, price(2_500_000, 10_000_000));
    assert.equal(total, 8_755_000);
  });

  test('the reservation is the estimated input plus the output limit, or the uncapped allowance (model maximum) without one', () => {
    const p = price(1_000_000, 2_000_000);
    assert.equal(estimateReservationMicros({ inputTokens: 100, maxOutputTokens: 50 }, p, 1), 200);
    assert.equal(estimateReservationMicros({ inputTokens: 100, maxOutputTokens: undefined }, p, 1), 100 + 2 * 32_768);
    assert.equal(estimateReservationMicros({ inputTokens: 100, maxOutputTokens: undefined }, p, 1, 16_384), 100 + 2 * 16_384);
    assert.equal(estimateReservationMicros({ inputTokens: 100, maxOutputTokens: 50 }, p, 2), 400);
    assert.equal(estimateReservationMicros({ inputTokens: 100, maxOutputTokens: 50 }, undefined, 1), 0);
  });

  test('USD formatting for messages keeps every micro-unit', () => {
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(5_000_000), '$5.00');
    assert.equal(formatUsd(4_096), '$0.004096');
    assert.equal(formatUsd(1_230_000), '$1.23');
    assert.equal(formatUsd(-150), '-$0.00015');
  });
});
