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
