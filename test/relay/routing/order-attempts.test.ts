import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orderAttempts } from '../../../src/relay/routing/order-attempts.ts';
import { resolveUpstreamModel } from '../../../src/relay/channels/resolve-upstream-model.ts';
import { GatewayError } from '../../../src/core/gateway-error.ts';
import type { Channel } from '../../../src/domain/channel.ts';
import { createFixedRuntime } from '../../helpers/fixed-runtime.ts';

function channel(id: string, priority: number, weight: number, modelMap: Record<string, string> = {}): Channel {
  return {
    id,
    name: id,
    provider: 'openai',
    baseUrl: 'http://x/v1',
    apiKeys: ['k'],
    models: ['m'],
    groups: ['default'],
    modelMap,
    priority,
    weight,
    enabled: true,
    supportsResponses: false,
    allowedPrefixes: [],
    createdAt: 0,
    updatedAt: 0,
  };
}

describe('orderAttempts', () => {
  test('higher priority tiers come first and no channel appears twice', () => {
    const runtime = createFixedRuntime({ seed: 7 });
    const channels = [channel('low-a', 0, 5), channel('high-a', 10, 1), channel('low-b', 0, 5), channel('high-b', 10, 1)];
    for (let round = 0; round < 200; round += 1) {
      const order = orderAttempts(channels, runtime.random).map((c) => c.id);
      assert.equal(new Set(order).size, 4);
      assert.deepEqual(order.slice(0, 2).sort(), ['high-a', 'high-b']);
      assert.deepEqual(order.slice(2).sort(), ['low-a', 'low-b']);
    }
  });

  test('inside a tier, first picks follow the weights (seeded, 20k draws within 2%)', () => {
    const runtime = createFixedRuntime({ seed: 12345 });
    const channels = [channel('a', 0, 1), channel('b', 0, 3), channel('c', 0, 6)];
    const firsts = new Map<string, number>();
    const draws = 20_000;
    for (let index = 0; index < draws; index += 1) {
      const first = orderAttempts(channels, runtime.random)[0]?.id ?? '';
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    for (const [id, expected] of [
      ['a', 0.1],
      ['b', 0.3],
      ['c', 0.6],
    ] as const) {
      const share = (firsts.get(id) ?? 0) / draws;
      assert.ok(Math.abs(share - expected) < 0.02, `${id}: ${share} vs ${expected}`);
    }
  });

  test('a weight-0 channel is only tried after every weighted channel of its tier', () => {
    const runtime = createFixedRuntime({ seed: 3 });
    const channels = [channel('zero', 0, 0), channel('one', 0, 1), channel('two', 0, 2)];
    for (let round = 0; round < 500; round += 1) assert.equal(orderAttempts(channels, runtime.random).at(-1)?.id, 'zero');
  });
});

describe('resolveUpstreamModel', () => {
  test('follows chains of the model map', () => {
    assert.equal(resolveUpstreamModel(channel('c', 0, 1, { fast: 'mini', mini: 'gpt-4o-mini-2024' }), 'fast'), 'gpt-4o-mini-2024');
    assert.equal(resolveUpstreamModel(channel('c', 0, 1, {}), 'fast'), 'fast');
  });

  test('reports a cycle instead of looping', () => {
    assert.throws(
      () => resolveUpstreamModel(channel('c', 0, 1, { a: 'b', b: 'c', c: 'a' }), 'a'),
      (error: unknown) => error instanceof GatewayError && /cycle \(a → b → c → a\)/.test(error.message),
    );
  });
});
