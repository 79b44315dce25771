import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConformanceContext } from './conformance-context.ts';
import { usageEntry } from './conformance-context.ts';

const DAY = 86_400_000;
// 2023-11-14T00:00:00Z, a UTC midnight.
const MIDNIGHT = 1_699_920_000_000;

export function describeUsageAggregate(context: ConformanceContext): void {
  describe('usage aggregation per day', () => {
    const entries = () => [
      usageEntry({ requestId: 'a', time: MIDNIGHT, keyId: 'key_a', model: 'gpt-4o', inputTokens: 10, outputTokens: 1, costMicros: 100 }),
      usageEntry({ requestId: 'b', time: MIDNIGHT + DAY - 1, keyId: 'key_a', model: 'claude', inputTokens: 20, outputTokens: 2, costMicros: 200, status: 500 }),
      usageEntry({ requestId: 'c', time: MIDNIGHT + 5, keyId: 'key_b', model: 'gpt-4o', inputTokens: 30, outputTokens: 3, costMicros: 300 }),
      usageEntry({ requestId: 'd', time: MIDNIGHT + DAY, keyId: 'key_a', model: 'gpt-4o', inputTokens: 40, outputTokens: 4, costMicros: 400 }),
      usageEntry({
        requestId: 'e',
        time: MIDNIGHT + DAY + 1,
        keyId: null,
        model: null,
        status: 401,
        inputTokens: 0,
        outputTokens: 0,
        costMicros: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      }),
      usageEntry({ requestId: 'outside', time: MIDNIGHT + 2 * DAY, keyId: 'key_a', costMicros: 9_999 }),
    ];

    test('by key: one row per UTC day × key, sums exact, nulls last, range end exclusive', async () => {
      await context.store.usage.insertMany(entries());
      const rows = await context.store.usage.aggregate({ from: MIDNIGHT, to: MIDNIGHT + 2 * DAY, by: 'key' });
      assert.deepEqual(
        rows.map((row) => [row.day, row.subject, row.requests, row.errors, row.inputTokens, row.outputTokens, row.costMicros]),
        [
          ['2023-11-14', 'key_a', 2, 1, 30, 3, 300],
          ['2023-11-14', 'key_b', 1, 0, 30, 3, 300],
          ['2023-11-15', 'key_a', 1, 0, 40, 4, 400],
          ['2023-11-15', null, 1, 1, 0, 0, 0],
        ],
      );
      const first = rows[0]!;
      assert.equal(typeof first.cacheReadTokens, 'number');
      assert.equal(typeof first.reasoningTokens, 'number');
    });

    test('by model, and narrowed to one key', async () => {
      await context.store.usage.insertMany(entries());
      const rows = await context.store.usage.aggregate({ from: MIDNIGHT, to: MIDNIGHT + 2 * DAY, by: 'model', keyId: 'key_a' });
      assert.deepEqual(
        rows.map((row) => [row.day, row.subject, row.requests, row.costMicros]),
        [
          ['2023-11-14', 'claude', 1, 200],
          ['2023-11-14', 'gpt-4o', 1, 100],
          ['2023-11-15', 'gpt-4o', 1, 400],
        ],
      );
    });

    test('an empty range gives no rows', async () => {
      await context.store.usage.insertMany(entries());
      assert.deepEqual(await context.store.usage.aggregate({ from: 0, to: 1, by: 'key' }), []);
    });
  });
}
