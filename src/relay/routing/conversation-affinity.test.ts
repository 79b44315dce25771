import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Channel } from '../../domain/channel.ts';
import { createMemoryKv } from '../../kv/create-memory-kv.ts';
import type { AffinityHint } from '../../protocols/protocol-codec.ts';
import { ConversationAffinity, PREFIX_LOOKBACK_BLOCKS, preferChannel } from './conversation-affinity.ts';

function channel(id: string, priority = 0, apiKeys = ['k0', 'k1']): Channel {
  return {
    id,
    name: id,
    provider: 'anthropic',
    baseUrl: 'http://x',
    apiKeys,
    models: ['m'],
    groups: ['default'],
    modelMap: {},
    priority,
    weight: 1,
    enabled: true,
    supportsResponses: false,
    allowedPrefixes: [],
    createdAt: 0,
    updatedAt: 0,
  };
}

function setUp(ttlMs = 60_000) {
  let time = 1_000;
  const kv = createMemoryKv({ now: () => time });
  return { affinity: new ConversationAffinity(kv, ttlMs), advance: (ms: number) => (time += ms) };
}

/** A conversation of `turns` user turns with replies between them; the breakpoint is on the last block. */
function prefixHint(turns: number, extra: AffinityHint = { conversationKeys: [] }): AffinityHint {
  const blocks = ['tool\u0000{"name":"t"}', 'system\u0000{"type":"text","text":"s"}'];
  for (let turn = 1; turn <= turns; turn += 1) {
    if (turn > 1) blocks.push(`assistant\u0000{"type":"text","text":"reply ${turn - 1}"}`);
    blocks.push(`user\u0000{"type":"text","text":"question ${turn}"}`);
  }
  return { ...extra, cachePrefix: { blocks, breakpoints: [blocks.length - 1] } };
}

const a = channel('a');
const b = channel('b');

describe('ConversationAffinity', () => {
  test('a conversation key finds the channel and key that served the last turn', async () => {
    const { affinity } = setUp();
    const hint: AffinityHint = { conversationKeys: ['prompt_cache_key:c1'] };
    const turn = affinity.plan('key-1', 'm', hint);
    assert.equal(await affinity.find(turn, [a, b]), undefined);
    await affinity.remember(turn, { channelId: 'b', keyIndex: 1, apiKey: 'k1' });
    assert.deepEqual(await affinity.find(affinity.plan('key-1', 'm', hint), [a, b]), { channel: b, keyIndex: 1 });
  });

  test('entries are scoped to the API key and the model', async () => {
    const { affinity } = setUp();
    const hint: AffinityHint = { conversationKeys: ['user_id:u'] };
    await affinity.remember(affinity.plan('key-1', 'm', hint), { channelId: 'b', keyIndex: 0, apiKey: 'k0' });
    assert.equal(await affinity.find(affinity.plan('key-2', 'm', hint), [a, b]), undefined);
    assert.equal(await affinity.find(affinity.plan('key-1', 'other-model', hint), [a, b]), undefined);
  });

  test('the cache prefix: turn N+1 continues turn N although the breakpoint moved', async () => {
    const { affinity } = setUp();
    await affinity.remember(affinity.plan('key-1', 'm', prefixHint(1)), { channelId: 'a', keyIndex: 0, apiKey: 'k0' });
    for (let turn = 2; turn <= 20; turn += 1) {
      const plan = affinity.plan('key-1', 'm', prefixHint(turn));
      assert.equal((await affinity.find(plan, [b, a]))?.channel.id, 'a', `turn ${turn}`);
      await affinity.remember(plan, { channelId: 'a', keyIndex: 0, apiKey: 'k0' });
    }
    // A different conversation with the same tools and system prompt is not steered.
    const other = prefixHint(1);
    other.cachePrefix?.blocks.splice(-1, 1, 'user\u0000{"type":"text","text":"something else"}');
    assert.equal(await affinity.find(affinity.plan('key-1', 'm', other), [a, b]), undefined);
  });

  test(`a prefix more than ${PREFIX_LOOKBACK_BLOCKS} blocks behind the breakpoint is not looked for`, async () => {
    const { affinity } = setUp();
    await affinity.remember(affinity.plan('key-1', 'm', prefixHint(1)), { channelId: 'a', keyIndex: 0, apiKey: 'k0' });
    // Turn 12 adds 22 blocks after turn 1's breakpoint.
    assert.equal(await affinity.find(affinity.plan('key-1', 'm', prefixHint(12)), [a, b]), undefined);
    assert.equal((await affinity.find(affinity.plan('key-1', 'm', prefixHint(11)), [a, b]))?.channel.id, 'a');
  });

  test('a Responses chain: the next turn finds the channel under the previous response id', async () => {
    const { affinity } = setUp();
    const first = affinity.plan('key-1', 'm', { conversationKeys: [], responseChain: { previous: undefined } });
    await affinity.remember(first, { channelId: 'b', keyIndex: 0, apiKey: 'k0' }, 'resp_1');
    const second = affinity.plan('key-1', 'm', { conversationKeys: [], responseChain: { previous: 'resp_1' } });
    assert.equal((await affinity.find(second, [a, b]))?.channel.id, 'b');
    assert.equal(await affinity.find(affinity.plan('key-2', 'm', { conversationKeys: [], responseChain: { previous: 'resp_1' } }), [a, b]), undefined);
  });

  test('a channel no longer among the candidates is passed over; a moved key is followed, a removed one dropped', async () => {
    const { affinity } = setUp();
    const hint: AffinityHint = { conversationKeys: ['user:x'] };
    const plan = affinity.plan('key-1', 'm', hint);
    await affinity.remember(plan, { channelId: 'a', keyIndex: 1, apiKey: 'k1' });
    assert.equal(await affinity.find(plan, [b]), undefined);
    assert.deepEqual(await affinity.find(plan, [channel('a', 0, ['k1', 'k0'])]), { channel: channel('a', 0, ['k1', 'k0']), keyIndex: 0 });
    assert.deepEqual(await affinity.find(plan, [channel('a', 0, ['k0', 'k9'])]), { channel: channel('a', 0, ['k0', 'k9']), keyIndex: undefined });
  });

  test('entries expire after the ttl since the last turn', async () => {
    const { affinity, advance } = setUp(1_000);
    const plan = affinity.plan('key-1', 'm', { conversationKeys: ['user:x'] });
    await affinity.remember(plan, { channelId: 'a', keyIndex: 0, apiKey: 'k0' });
    advance(900);
    await affinity.remember(plan, { channelId: 'a', keyIndex: 0, apiKey: 'k0' });
    advance(900);
    assert.equal((await affinity.find(plan, [a, b]))?.channel.id, 'a');
    advance(100);
    assert.equal(await affinity.find(plan, [a, b]), undefined);
  });
});

describe('preferChannel', () => {
  test('moves the channel to the front of its own tier, never above a higher tier', () => {
    const ordered = [channel('h1', 10), channel('h2', 10), channel('l1', 0), channel('l2', 0)];
    assert.deepEqual(
      preferChannel(ordered, channel('h2', 10)).map((c) => c.id),
      ['h2', 'h1', 'l1', 'l2'],
    );
    assert.deepEqual(
      preferChannel(ordered, channel('l2', 0)).map((c) => c.id),
      ['h1', 'h2', 'l2', 'l1'],
    );
    assert.deepEqual(
      preferChannel(ordered, channel('h1', 10)).map((c) => c.id),
      ['h1', 'h2', 'l1', 'l2'],
    );
    assert.deepEqual(
      preferChannel(ordered, channel('gone', 5)).map((c) => c.id),
      ['h1', 'h2', 'l1', 'l2'],
    );
  });
});
