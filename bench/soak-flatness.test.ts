import assert from 'node:assert/strict';
import { test } from 'node:test';
import { soakIsFlat } from './soak-flatness.ts';
import type { SoakResult } from './soak.ts';

const soak = (rssMiB: number[], warmupSlices = 2): SoakResult => ({
  rate: 1000,
  minutes: 1,
  rssMiB,
  warmupSlices,
  rssBeforeMiB: 100,
  rssAfterIdleMiB: 100,
  p99Ms: [],
  errors: 0,
  cpuUsPerRequest: [],
});

test('a collector sawtooth around a steady level is flat, whatever its height', () => {
  const sawtooth = [300, 250, ...Array.from({ length: 30 }, (_, i) => (i % 4 === 3 ? 265 : 220 + (i % 4) * 5))];
  const verdict = soakIsFlat(soak(sawtooth));
  assert.equal(verdict.flat, true);
  assert.ok(Math.abs(verdict.trend) < 0.05, `trend ${verdict.trend}`);
  assert.ok(verdict.swing > 0.15, `the sawtooth's height is reported: swing ${verdict.swing}`);
  assert.ok(verdict.spread > 0.1, 'the old figure (largest slice over the first) would have failed it');
});

test('steady growth after warm-up is not flat', () => {
  const growing = [300, 250, ...Array.from({ length: 30 }, (_, i) => 200 + i * 3)];
  const verdict = soakIsFlat(soak(growing));
  assert.equal(verdict.flat, false);
  assert.ok(verdict.trend > 0.2, `trend ${verdict.trend}`);
});

test('warm-up slices are not held to the bound', () => {
  const verdict = soakIsFlat(soak([100, 180, 200, 201, 199, 200, 202, 200], 2));
  assert.equal(verdict.flat, true);
});
