import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import type { ProtocolId } from '../../src/protocols/protocol-codec.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { UPSTREAM_SECRET } from '../helpers/gateway-harness.ts';
import { firstCall, readTurn, secondCall, stripReasoning, type ClientCall } from '../golden/reasoning-loop-client.ts';
import { redisTestUrl } from './redis-test-support.ts';
import { startScaleHarness, type ScaleHarness } from './scale-harness.ts';

/**
 * The tool-call reasoning cache is shared through Redis: a client that drops the reasoning state
 * from its history (the Vercel AI SDK's OpenAI Chat provider; a Responses client that did not
 * `include` encrypted reasoning) gets it back when its next turn lands on another instance. Turn
 * one goes to instance A, turn two — reasoning stripped by the client — to instance B, and the
 * strict simulator (signed thinking, Gemini 3 thought signatures) accepts it.
 */
const UPSTREAMS = [
  { kind: 'anthropic-messages', provider: 'anthropic', model: 'scale-claude', upstreamModel: 'claude-sonnet-4-6' },
  { kind: 'gemini-generate-content', provider: 'gemini', model: 'scale-gemini', upstreamModel: 'gemini-3-pro-preview' },
] as const;
const CLIENTS: ProtocolId[] = ['openai-chat', 'openai-responses'];

describe('reasoning cache shared by two instances through Redis', { concurrency: false }, () => {
  let harness: ScaleHarness;
  let a: string;
  let b: string;
  let key: string;
  let otherKey: string;
  let keyId: string;
  const redis = new Redis(redisTestUrl());

  before(async () => {
    harness = await startScaleHarness();
    [a, b] = harness.instances.map((instance) => instance.url) as [string, string];
    for (const upstream of UPSTREAMS) {
      await harness.admin(0, 'POST', '/channels', {
        name: `reasoning-${upstream.provider}`,
        provider: upstream.provider,
        baseUrl: harness.simulator.url,
        apiKey: UPSTREAM_SECRET,
        models: [upstream.model],
        modelMap: { [upstream.model]: upstream.upstreamModel },
        groups: ['default'],
      });
    }
    const created = await harness.admin(0, 'POST', '/keys', { name: 'reasoning', group: 'default' });
    const other = await harness.admin(0, 'POST', '/keys', { name: 'reasoning-other', group: 'default' });
    ({ key, id: keyId } = created);
    otherKey = other.key;
    // Both snapshots must know the keys and channels (the event bus brings them to B a moment later).
    for (const url of [a, b]) {
      for (const secret of [key, otherKey]) {
        await waitFor(async () => (await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } })).status === 200, 'key known');
      }
      await waitFor(async () => {
        const listed = (await (await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: Array<{ id: string }> };
        return UPSTREAMS.every((upstream) => listed.data.some((model) => model.id === upstream.model));
      }, 'channels known');
    }
  });
  after(async () => {
    redis.disconnect();
    await harness?.close();
  });

  const send = async (base: string, call: ClientCall) => {
    const response = await fetch(`${base}${call.path}`, { method: 'POST', headers: call.headers, body: JSON.stringify(call.body) });
    return { status: response.status, text: await response.text(), warnings: response.headers.get('x-switchyard-warnings') ?? '' };
  };

  /** Turn one on A; turn two, with the reasoning stripped, on B under `secondKey`. */
  const loop = async (client: ProtocolId, upstream: (typeof UPSTREAMS)[number], stream: boolean, secondKey: string) => {
    harness.simulator.enqueue({
      reasoning: { text: 'The answer is in the file; read it first.' },
      toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }],
    });
    const first = await send(a, firstCall(client, upstream.model, stream, key));
    assert.equal(first.status, 200, `turn one: ${first.text}`);
    const turn = readTurn(client, stream, first.text);
    assert.equal(turn.callName, 'read_file');
    assert.notEqual(turn.callId, '');
    harness.simulator.enqueue({ reasoning: { text: 'The tool answered.' }, text: 'notes.txt says hello.' });
    const second = await send(b, secondCall(client, upstream.model, stream, secondKey, stripReasoning(client, turn)));
    return { ...second, upstreamBody: harness.simulator.lastRequest()?.body as Record<string, any> };
  };

  for (const upstream of UPSTREAMS) {
    for (const client of CLIENTS) {
      for (const stream of [false, true]) {
        test(`${client} → ${upstream.kind}${stream ? ' (stream)' : ''}: turn two on the other instance is rescued from Redis`, async () => {
          const second = await loop(client, upstream, stream, key);
          assert.equal(second.status, 200, `turn two refused: ${second.text}`);
          assert.match(second.warnings, /compatibility:reasoning_state_recalled/);
          assert.doesNotMatch(second.warnings, /thinking_disabled|thought_signature/);
          if (upstream.kind === 'anthropic-messages') assert.equal(second.upstreamBody.thinking?.type, 'enabled', 'thinking stays on');
        });
      }
    }
  }

  test('another key on the other instance recalls nothing and degrades with a warning', async () => {
    const second = await loop('openai-chat', UPSTREAMS[0], false, otherKey);
    assert.equal(second.status, 200, second.text);
    assert.doesNotMatch(second.warnings, /reasoning_state_recalled/);
    assert.match(second.warnings, /compatibility:thinking_disabled/);
  });

  test('Redis holds sealed envelopes under the key id, with the cache TTL', async () => {
    const names = await redis.keys(`${harness.redisPrefix}reasoning:${keyId}:*`);
    assert.ok(names.length >= UPSTREAMS.length * CLIENTS.length * 2);
    const ttl = await redis.pttl(names[0]!);
    assert.ok(ttl > 0 && ttl <= 3_600_000, `ttl ${ttl}`);
    for (const value of await redis.mget(...names)) assert.match(value ?? '', /^U1lSA/);
  });
});
