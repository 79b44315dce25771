import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Channel } from '../../domain/channel.ts';
import { ChannelHealth } from './channel-health.ts';

const channel: Channel = {
  id: 'c',
  name: 'c',
  provider: 'openai',
  baseUrl: 'http://x/v1',
  apiKeys: ['k0', 'k1', 'k2'],
  models: ['m'],
  groups: ['default'],
  modelMap: {},
  priority: 0,
  weight: 1,
  enabled: true,
  supportsResponses: false,
  allowedPrefixes: [],
  createdAt: 0,
  updatedAt: 0,
};

const failure = { at: 0, status: 401, code: 'upstream_auth', message: 'refused' };

describe('ChannelHealth leases: which upstream key', () => {
  test('without a preference the keys rotate', () => {
    const health = new ChannelHealth(() => 0);
    assert.deepEqual(
      [0, 1, 2, 3].map(() => health.acquire(channel)?.keyIndex),
      [0, 1, 2, 0],
    );
  });

  test('a preferred key is used while it admits traffic, without moving the rotation', () => {
    const health = new ChannelHealth(() => 0);
    assert.equal(health.acquire(channel, { preferKeyIndex: 2 })?.keyIndex, 2);
    assert.equal(health.acquire(channel, { preferKeyIndex: 2 })?.keyIndex, 2);
    assert.equal(health.acquire(channel)?.keyIndex, 0);
  });

  test('a preferred key that is out gives way to the rotation; a required one gives no lease', () => {
    const health = new ChannelHealth(() => 0);
    const lease = health.acquire(channel, { onlyKeyIndex: 1 });
    assert.ok(lease);
    health.recordBroken(channel, lease, failure);
    assert.equal(health.acquire(channel, { onlyKeyIndex: 1 }), undefined);
    const fallback = health.acquire(channel, { preferKeyIndex: 1 });
    assert.ok(fallback && fallback.keyIndex !== 1);
    // A required key wins over a preferred one.
    assert.equal(health.acquire(channel, { onlyKeyIndex: 2, preferKeyIndex: 0 })?.keyIndex, 2);
  });

  test('a preferred key out of range is ignored', () => {
    const health = new ChannelHealth(() => 0);
    assert.equal(health.acquire(channel, { preferKeyIndex: 7 })?.keyIndex, 0);
  });
});

describe('ChannelHealth transitions (onTransition)', () => {
  const transitions = (health: ChannelHealth) => {
    const seen: Array<{ keyIndex: number | null; model?: string | null; state: string }> = [];
    health.onTransition = (transition) =>
      seen.push({ keyIndex: transition.keyIndex, ...(transition.model === undefined ? {} : { model: transition.model }), state: transition.state });
    return seen;
  };

  test('traffic that opens nothing reports nothing; a broken key opens its circuit, once', () => {
    let now = 0;
    const health = new ChannelHealth(() => now);
    const seen = transitions(health);
    for (let index = 0; index < 5; index += 1) {
      const lease = health.acquire(channel, { model: 'm' });
      assert.ok(lease);
      health.recordSuccess(channel, lease, 10);
    }
    assert.deepEqual(seen, []);
    const lease = health.acquire(channel, { onlyKeyIndex: 1 });
    assert.ok(lease);
    health.recordBroken(channel, lease, failure);
    assert.deepEqual(seen, [{ keyIndex: 1, state: 'open' }]);
    now += 1;
    const next = health.acquire(channel);
    assert.ok(next && next.keyIndex !== 1);
    health.recordSuccess(channel, next, 10);
    assert.deepEqual(seen, [{ keyIndex: 1, state: 'open' }]);
  });

  test('failures of one model open that model circuit and report it under its model', () => {
    const health = new ChannelHealth(() => 0);
    const seen = transitions(health);
    for (let index = 0; index < 5; index += 1) {
      const lease = health.acquire(channel, { model: 'slow' });
      assert.ok(lease);
      health.recordFailure(channel, lease, { at: 0, status: null, code: 'upstream_timeout', message: 'late' }, 'model');
    }
    assert.deepEqual(seen, [{ keyIndex: null, model: 'slow', state: 'open' }]);
    assert.equal(health.acquire(channel, { model: 'slow' }), undefined);
    assert.ok(health.acquire(channel, { model: 'other' }));
  });
});
