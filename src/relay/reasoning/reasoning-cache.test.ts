import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import type { ChatRequest } from '../../core/chat-request.ts';
import { createMemoryKv } from '../../kv/create-memory-kv.ts';
import type { Kv } from '../../kv/kv.ts';
import { createReasoningCache, DEFAULT_MAX_REASONING_ENVELOPE_BYTES, DEFAULT_REASONING_CACHE_TTL_MS, reasoningCacheKey } from './reasoning-cache.ts';
import { createEnvelopeSealer } from './reasoning-envelope.ts';
import { callIdsToRecall } from './restore-request-reasoning.ts';

function setUp(options: { maxTextEntries?: number; ttlMs?: number } = {}) {
  let time = 1_000;
  const kv = createMemoryKv({ now: () => time, ...(options.maxTextEntries === undefined ? {} : { maxTextEntries: options.maxTextEntries }) });
  const cache = createReasoningCache({ kv, ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }) });
  return { kv, cache, advance: (ms: number) => (time += ms) };
}

/** Lets the writes `remember` started (and did not wait for) land. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('reasoning cache in the kv', () => {
  test("an envelope kept under a turn's call ids is recalled under any of them, for the same key only", async () => {
    const { cache } = setUp();
    cache.remember('key-1', ['call_a', 'call_b'], 'U1lSAenvelope');
    await settle();
    assert.deepEqual([...(await cache.recall('key-1', ['call_b', 'call_x']))], [['call_b', 'U1lSAenvelope']]);
    assert.deepEqual([...(await cache.recall('key-1', ['call_a']))], [['call_a', 'U1lSAenvelope']]);
    // Another API key names other kv entries: nothing of key-1's is visible to it.
    assert.equal((await cache.recall('key-2', ['call_a', 'call_b'])).size, 0);
    assert.notEqual(reasoningCacheKey('key-1', 'call_a'), reasoningCacheKey('key-2', 'call_a'));
  });

  test('an envelope over 256 KiB is not cached (the turn degrades as if the client dropped it); one at the cap is', async () => {
    const { kv, cache } = setUp();
    const atCap = `U1lSA${'a'.repeat(DEFAULT_MAX_REASONING_ENVELOPE_BYTES - 5)}`;
    cache.remember('key-1', ['call_big'], `${atCap}b`);
    cache.remember('key-1', ['call_ok'], atCap);
    await settle();
    assert.deepEqual([...(await cache.recall('key-1', ['call_big', 'call_ok']))], [['call_ok', atCap]]);
    assert.deepEqual(await kv.getTexts([reasoningCacheKey('key-1', 'call_big')]), [undefined]);
  });

  test('entries expire after the TTL (an hour by default) and the kv bounds how many are kept', async () => {
    const { cache, advance } = setUp();
    cache.remember('key-1', ['call_a'], 'U1lSAone');
    await settle();
    advance(DEFAULT_REASONING_CACHE_TTL_MS - 1);
    assert.equal((await cache.recall('key-1', ['call_a'])).size, 1);
    advance(1);
    assert.equal((await cache.recall('key-1', ['call_a'])).size, 0);

    const bounded = setUp({ maxTextEntries: 2, ttlMs: 60_000 });
    bounded.cache.remember('key-1', ['call_1'], 'U1lSAone');
    bounded.cache.remember('key-1', ['call_2', 'call_3'], 'U1lSAtwo');
    await settle();
    assert.deepEqual(
      [...(await bounded.cache.recall('key-1', ['call_1', 'call_2', 'call_3']))],
      [
        ['call_2', 'U1lSAtwo'],
        ['call_3', 'U1lSAtwo'],
      ],
    );
  });

  test('one kv read per recall (call ids asked twice are read once); none when there is nothing to ask', async () => {
    const { kv } = setUp();
    const reads: string[][] = [];
    const counting: Kv = { ...kv, getTexts: (keys) => (reads.push([...keys]), kv.getTexts(keys)) };
    const cache = createReasoningCache({ kv: counting });
    await cache.recall('key-1', ['call_a', 'call_b', 'call_a']);
    await cache.recall('key-1', []);
    assert.deepEqual(reads, [[reasoningCacheKey('key-1', 'call_a'), reasoningCacheKey('key-1', 'call_b')]]);
  });

  test('a failing kv means nothing recalled and a lost write, never an error for the request', async () => {
    const { kv } = setUp();
    const broken: Kv = {
      ...kv,
      getTexts: async () => {
        throw new Error('connection to Redis closed');
      },
      setTexts: () => {
        throw new Error('thrown before a promise');
      },
    };
    const logged: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line).msg) });
    const cache = createReasoningCache({ kv: broken, logger });
    assert.doesNotThrow(() => cache.remember('key-1', ['call_a'], 'U1lSAenvelope'));
    const rejecting = createReasoningCache({ kv: { ...kv, setTexts: async () => Promise.reject(new Error('slow')) }, logger });
    rejecting.remember('key-1', ['call_a'], 'U1lSAenvelope');
    await settle();
    assert.equal((await cache.recall('key-1', ['call_a'])).size, 0);
    assert.equal(logged.length, 3);
  });

  test("the kv holds the sealed envelope, never the provider's raw signature", async () => {
    const { kv, cache } = setUp();
    const sealer = createEnvelopeSealer('secret');
    const envelope = sealer.seal({ protocol: 'anthropic-messages', channelId: 'ch_1' }, [
      { kind: 'anthropic-thinking', text: 'hm', signature: 'RAW-ANTHROPIC-SIG' },
    ]);
    cache.remember('key-1', ['call_a'], envelope);
    await settle();
    const [stored] = await kv.getTexts([reasoningCacheKey('key-1', 'call_a')]);
    assert.equal(stored, envelope);
    assert.doesNotMatch(stored ?? '', /RAW-ANTHROPIC-SIG/);
    assert.equal(sealer.open(stored ?? '')?.channelId, 'ch_1');
  });
});

describe('callIdsToRecall', () => {
  test('names the tool calls of assistant turns that carry no envelope, and changes nothing', () => {
    const request: ChatRequest = {
      model: 'm',
      system: [],
      tools: [],
      stream: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        // Dropped by the client (the AI SDK's Chat provider): recall.
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', callId: 'call_1', name: 't', arguments: '{}' },
            { type: 'tool-call', callId: 'call_2', name: 't', arguments: '{}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'r' }] }] },
        // Carried by the client: no look-up.
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: '', providerMetadata: { openai: { encryptedContent: 'U1lSAcarried' } } },
            { type: 'tool-call', callId: 'call_3', name: 't', arguments: '{}' },
          ],
        },
        // A raw value of some provider is not an envelope: recall.
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'x', signature: 'raw' },
            { type: 'tool-call', callId: 'call_4', name: 't', arguments: '{}' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'no calls' }] },
      ],
    };
    const before = structuredClone(request);
    assert.deepEqual(callIdsToRecall(request), ['call_1', 'call_2', 'call_4']);
    assert.deepEqual(request, before);
  });
});
