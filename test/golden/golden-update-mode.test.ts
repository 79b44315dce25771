import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goldenUpdateMode } from './golden-update-mode.ts';

test('UPDATE_GOLDEN=1 rewrites goldens on a developer machine', () => {
  assert.equal(goldenUpdateMode({ UPDATE_GOLDEN: '1' }), true);
  assert.equal(goldenUpdateMode({ UPDATE_GOLDEN: '1', CI: 'false' }), true);
  assert.equal(goldenUpdateMode({ UPDATE_GOLDEN: '1', CI: '' }), true);
});

test('UPDATE_GOLDEN=1 is refused under CI, where a vacuous pass would count as proof', () => {
  for (const CI of ['true', '1', 'TRUE', 'yes']) {
    assert.throws(() => goldenUpdateMode({ UPDATE_GOLDEN: '1', CI }), /refused under CI/);
  }
});

test('without UPDATE_GOLDEN=1 the goldens are checked, CI or not', () => {
  assert.equal(goldenUpdateMode({}), false);
  assert.equal(goldenUpdateMode({ CI: 'true' }), false);
  assert.equal(goldenUpdateMode({ UPDATE_GOLDEN: '0', CI: 'true' }), false);
});
