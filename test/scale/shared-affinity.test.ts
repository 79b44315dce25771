import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Redis } from 'ioredis';
import type { Channel } from '../../src/domain/channel.ts';
import { createRedisKv } from '../../src/kv/create-redis-kv.ts';
import { getCodec } from '../../src/protocols/codec-registry.ts';
import { ConversationAffinity } from '../../src/relay/routing/conversation-affinity.ts';
import { deleteKeys, redisTestUrl, uniquePrefix } from './redis-test-support.ts';

const prefix = uniquePrefix('affinity');
const connections = [new Redis(redisTestUrl()), new Redis(redisTestUrl())];
after(async () => {
  await deleteKeys(redisTestUrl(), prefix);
  for (const connection of connections) connection.disconnect();
});

function channel(id: string): Channel {
  return {
    id,
    name: id,
    provider: 'anthropic',
    baseUrl: 'http://x',
    apiKeys: ['k0', 'k1'],
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
}

const turn = (count: number) => {
  const messages: unknown[] = [];
  for (let index = 1; index <= count; index += 1) {
    if (index > 1) messages.push({ role: 'assistant', content: `answer ${index - 1}` });
    messages.push({
      role: 'user',
      content: [{ type: 'text', text: `question ${index}`, ...(index === count ? { cache_control: { type: 'ephemeral' } } : {}) }],
    });
  }
  return { model: 'm', system: 'sys', messages };
};

test('two instances share conversation affinity through Redis: a turn served on one continues on the other', async () => {
  const [first, second] = connections.map((connection) => new ConversationAffinity(createRedisKv(connection, { prefix }), 60_000)) as [
    ConversationAffinity,
    ConversationAffinity,
  ];
  const hint = (count: number) => getCodec('anthropic-messages').affinityHint?.({ body: turn(count) });
  const candidates = [channel('a'), channel('b')];
  // Instance 1 served turn 1 on channel b with its second key.
  const one = hint(1);
  assert.ok(one);
  await first.remember(first.plan('key-1', 'm', one), { channelId: 'b', keyIndex: 1, apiKey: 'k1' });
  // Turn 2 arrives at instance 2.
  const two = hint(2);
  assert.ok(two);
  assert.deepEqual(await second.find(second.plan('key-1', 'm', two), candidates), { channel: candidates[1], keyIndex: 1 });
  // Another API key sees nothing of it.
  assert.equal(await second.find(second.plan('key-2', 'm', two), candidates), undefined);
  const ttl = await connections[0]!.pttl((await connections[0]!.keys(`${prefix}affinity:key-1:*`))[0]!);
  assert.ok(ttl > 0 && ttl <= 60_000);
});
