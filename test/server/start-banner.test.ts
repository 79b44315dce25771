import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unpricedModels } from '../../src/billing/unpriced-models.ts';
import type { Channel } from '../../src/domain/channel.ts';
import { startBanner } from '../../src/startup/start-banner.ts';

const facts = { url: 'http://127.0.0.1:8080', database: 'sqlite:x.db', workers: 1, redis: false, channels: 2, keys: 1, pendingAdminToken: undefined, cores: 1 };

function channel(models: string[], enabled = true): Channel {
  return { models, enabled } as Channel;
}

// Issue 27: the operator hears at start which served models have no price, and what happens to them.
test('unpricedModels: models of enabled channels without a price, once each, sorted', () => {
  const channels = [channel(['gpt-4o', 'b-model', 'gpt-4o-mini']), channel(['gpt-4o', 'a-model']), channel(['only-disabled'], false)];
  assert.deepEqual(unpricedModels(channels, [{ model: 'gpt-4o-mini' }]), ['a-model', 'b-model', 'gpt-4o']);
  assert.deepEqual(
    unpricedModels(
      channels,
      ['a-model', 'b-model', 'gpt-4o', 'gpt-4o-mini'].map((model) => ({ model })),
    ),
    [],
  );
});

test('the start banner names the unpriced models and says whether they are refused or served free', () => {
  const free = startBanner({ ...facts, unpricedModels: ['a-model', 'gpt-4o'], strictPricing: false });
  assert.match(
    free,
    /Prices: {3}2 served models without a price: a-model, gpt-4o; requests for them are served FREE \(set STRICT_PRICING=true to refuse them\)/,
  );
  const strict = startBanner({ ...facts, unpricedModels: ['a-model'], strictPricing: true });
  assert.match(strict, /1 served model without a price: a-model; requests for them are refused \(403 model_not_priced\)/);
  const many = startBanner({ ...facts, unpricedModels: Array.from({ length: 12 }, (_, index) => `m${String(index).padStart(2, '0')}`) });
  assert.match(many, /m00, m01, m02, m03, m04, m05, m06, m07 and 4 more;/);
  assert.doesNotMatch(startBanner({ ...facts, unpricedModels: [] }), /Prices:/);
});
