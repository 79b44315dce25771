import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chargeMinorFor } from './exchange-rates.ts';
import { bonusFor, discounted, topUpProblem } from './top-up-rules.ts';

const rules = {
  minUsd: 1,
  maxUsd: 500,
  presetsUsd: [10],
  bonusTiers: [
    { fromUsd: 100, bonusPercent: 10 },
    { fromUsd: 50, bonusPercent: 5 },
  ],
};

test('the highest bonus tier reached applies ("pay 100, get 110")', () => {
  assert.equal(bonusFor(49_999_999, rules), 0);
  assert.equal(bonusFor(50_000_000, rules), 2_500_000);
  assert.equal(bonusFor(100_000_000, rules), 10_000_000);
});

test('minimum and maximum are refused with the bound named', () => {
  assert.match(topUpProblem(999_999, rules) ?? '', /smallest top-up is \$1/);
  assert.match(topUpProblem(500_000_001, rules) ?? '', /largest top-up is \$500/);
  assert.equal(topUpProblem(10_000_000, rules), undefined);
});

test('promotions: percent floors to a micro-USD, fixed never goes below zero', () => {
  const code = { code: 'x', usageLimit: null, usedCount: 0, expiresAt: null, createdAt: 0 };
  assert.equal(discounted(10_000_000, { ...code, kind: 'percent', value: 15 }), 8_500_000);
  assert.equal(discounted(3_000_000, { ...code, kind: 'fixed', value: 5_000_000 }), 0);
  assert.equal(discounted(3_000_000, undefined), 3_000_000);
});

test('charges in minor units at the operator rate; no rate, no charge', () => {
  assert.equal(chargeMinorFor(10_000_000, 'usd', {}), 1000);
  assert.equal(chargeMinorFor(10_000_000, 'cny', { CNY: 7.2 }), 7200);
  assert.equal(chargeMinorFor(1_234_567, 'cny', { CNY: 7.1 }), 877);
  assert.equal(chargeMinorFor(10_000_000, 'eur', { CNY: 7.2 }), undefined);
});
