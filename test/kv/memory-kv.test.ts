import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryKv } from '../../src/kv/create-memory-kv.ts';
import { runKvConformance } from './kv-conformance.ts';

runKvConformance('memory kv', async () => {
  let time = 1_700_000_000_000;
  const kv = createMemoryKv({ now: () => time });
  return {
    kv,
    advanceTime: async (milliseconds) => {
      time += milliseconds;
    },
    dispose: () => kv.close(),
  };
});

test('memory kv: text entries are bounded; the least recently written go first', async () => {
  const kv = createMemoryKv({ now: () => 0, maxTextEntries: 2 });
  await kv.setTexts(['a'], '1', 1_000);
  await kv.setTexts(['b'], '2', 1_000);
  await kv.setTexts(['a'], '3', 1_000);
  await kv.setTexts(['c'], '4', 1_000);
  assert.deepEqual(await kv.getTexts(['a', 'b', 'c']), ['3', undefined, '4']);
});

test('memory kv: text entries are bounded in bytes (key + UTF-8 value); the least recently written go first', async () => {
  // Each entry below is 1 (key) + 40 (value) = 41 bytes; 100 bytes hold two of them.
  const kv = createMemoryKv({ now: () => 0, maxTextBytes: 100 });
  const value = (fill: string) => fill.repeat(40);
  await kv.setTexts(['a'], value('1'), 1_000);
  await kv.setTexts(['b'], value('2'), 1_000);
  await kv.setTexts(['a'], value('3'), 1_000);
  await kv.setTexts(['c'], value('4'), 1_000);
  assert.deepEqual(await kv.getTexts(['a', 'b', 'c']), [value('3'), undefined, value('4')]);
  // Multi-byte text counts its UTF-8 bytes: 1 + 20 × 2 = 41 bytes, so again only two fit.
  await kv.setTexts(['d'], 'é'.repeat(20), 1_000);
  assert.deepEqual(await kv.getTexts(['a', 'c', 'd']), [undefined, value('4'), 'é'.repeat(20)]);
});

test('memory kv: a text larger than the whole byte bound is not kept, and does not evict the others', async () => {
  const kv = createMemoryKv({ now: () => 0, maxTextBytes: 100 });
  await kv.setTexts(['a'], 'small', 1_000);
  await kv.setTexts(['b'], 'old', 1_000);
  await kv.setTexts(['b'], 'x'.repeat(200), 1_000);
  assert.deepEqual(await kv.getTexts(['a', 'b']), ['small', undefined]);
});

test('memory kv: expired and deleted texts give their bytes back', async () => {
  let time = 0;
  const kv = createMemoryKv({ now: () => time, maxTextBytes: 100 });
  await kv.setTexts(['a'], 'x'.repeat(60), 1_000);
  time = 2_000;
  assert.deepEqual(await kv.getTexts(['a']), [undefined]);
  await kv.setTexts(['b'], 'y'.repeat(60), 10_000);
  await kv.delete('b');
  await kv.setTexts(['c'], 'z'.repeat(60), 10_000);
  await kv.setTexts(['d'], 'w'.repeat(30), 10_000);
  assert.deepEqual(await kv.getTexts(['c', 'd']), ['z'.repeat(60), 'w'.repeat(30)]);
});

test("memory kv: one tenant's texts past its share evict only its own, never another tenant's (issue 23 item 18)", async () => {
  // The whole store holds 100 entries; a tenant holds at most 10 and 2 KiB.
  const kv = createMemoryKv({ now: () => 0, maxTextEntries: 100, maxTenantTextEntries: 10, maxTenantTextBytes: 2_048 });
  await kv.setTexts(['affinity:victim:conversation'], 'channel-1,0,fp', 60_000);
  await kv.setTexts(['reasoning:victim:call'], 'sealed-envelope', 60_000);
  // The attacker writes 500 envelopes of 400 bytes: enough to flush the whole store five times over.
  for (let turn = 0; turn < 500; turn += 1) await kv.setTexts([`reasoning:attacker:${turn}`], 'e'.repeat(400), 60_000);
  assert.deepEqual(await kv.getTexts(['affinity:victim:conversation', 'reasoning:victim:call']), ['channel-1,0,fp', 'sealed-envelope']);
  // The attacker keeps only its newest entries within its byte share (5 × ~420 bytes ≤ 2 KiB).
  const attacker = await kv.getTexts(Array.from({ length: 500 }, (_, turn) => `reasoning:attacker:${turn}`));
  const kept = attacker.flatMap((value, turn) => (value === undefined ? [] : [turn]));
  assert.ok(kept.length > 0 && kept.length <= 10, `kept ${kept.length}`);
  assert.equal(kept.at(-1), 499, 'the newest stay');
  // Its affinity entries share the same share: writing one drops its oldest envelope, not the victim's.
  await kv.setTexts(['affinity:attacker:x'], 'channel-2,0,fp', 60_000);
  assert.equal((await kv.getTexts(['affinity:attacker:x']))[0], 'channel-2,0,fp');
  assert.deepEqual(await kv.getTexts(['reasoning:victim:call']), ['sealed-envelope']);
});
