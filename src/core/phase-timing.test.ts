import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PhaseTiming } from './phase-timing.ts';

test('each phase is the time since the previous mark, then the total, in ms', () => {
  let clock = 10;
  const timing = new PhaseTiming(() => clock);
  clock = 10.25;
  timing.mark('auth');
  clock = 11;
  timing.mark('upstream');
  clock = 11.5;
  assert.equal(timing.header(), 'auth;dur=0.250, upstream;dur=0.750, total;dur=1.500');
});

test('only the total when no phase was marked', () => {
  let clock = 0;
  const timing = new PhaseTiming(() => clock);
  clock = 2;
  assert.equal(timing.header(), 'total;dur=2.000');
});
