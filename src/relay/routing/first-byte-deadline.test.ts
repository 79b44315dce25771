import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_FIRST_BYTE_DEADLINE, FirstByteDeadlines } from './first-byte-deadline.ts';

test('until a channel × model has enough samples, the cold deadline applies (within the bounds)', () => {
  const deadlines = new FirstByteDeadlines();
  assert.equal(deadlines.deadlineMs('ch', 'm'), DEFAULT_FIRST_BYTE_DEADLINE.coldMs);
  for (let index = 0; index < DEFAULT_FIRST_BYTE_DEADLINE.minSamples - 1; index += 1) deadlines.observe('ch', 'm', 100);
  assert.equal(deadlines.deadlineMs('ch', 'm'), DEFAULT_FIRST_BYTE_DEADLINE.coldMs);
  assert.equal(new FirstByteDeadlines({ coldMs: 50, minMs: 500 }).deadlineMs('ch', 'm'), 500);
});

test('then the percentile times the multiplier, floored and capped; each channel × model on its own', () => {
  const deadlines = new FirstByteDeadlines({ minMs: 1_000, maxMs: 10_000, percentile: 0.9, multiplier: 2, minSamples: 10 });
  // A fast channel: its jitter is not a hang, the floor holds.
  for (let index = 0; index < 10; index += 1) deadlines.observe('fast', 'm', 50 + index);
  assert.equal(deadlines.deadlineMs('fast', 'm'), 1_000);
  // 1..20 s: the 90th percentile of 20 samples is the 19th (19 000 ms) × 2, capped at 10 s.
  for (let index = 1; index <= 20; index += 1) deadlines.observe('slow', 'm', index * 1_000);
  assert.equal(deadlines.deadlineMs('slow', 'm'), 10_000);
  // 1..20 × 200 ms: the 19th is 3 800 ms, × 2 = 7 600 ms.
  for (let index = 1; index <= 20; index += 1) deadlines.observe('mid', 'm', index * 200);
  assert.equal(deadlines.deadlineMs('mid', 'm'), 7_600);
  assert.equal(deadlines.deadlineMs('mid', 'other-model'), deadlines.options.coldMs);
});

test('only the newest 64 samples count: a channel that got slow moves its deadline', () => {
  const deadlines = new FirstByteDeadlines({ minMs: 100, maxMs: 60_000, percentile: 0.5, multiplier: 1, minSamples: 1 });
  for (let index = 0; index < 64; index += 1) deadlines.observe('ch', 'm', 200);
  assert.equal(deadlines.deadlineMs('ch', 'm'), 200);
  for (let index = 0; index < 64; index += 1) deadlines.observe('ch', 'm', 5_000);
  assert.equal(deadlines.deadlineMs('ch', 'm'), 5_000);
});
