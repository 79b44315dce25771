import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConformanceContext } from './conformance-context.ts';
import { usageEntry } from './conformance-context.ts';

const HOUR = 3_600_000;
/** A whole hour, so bucket boundaries are easy to read. */
const T0 = 1_700_002_800_000;

export function describeUsageSummary(context: ConformanceContext): void {
  describe('usage summary', () => {
    test('buckets counts, tokens, cost and errors by hour, empty hours included', async () => {
      await context.store.usage.insertMany([
        usageEntry({ requestId: 'r1', time: T0 + 10, inputTokens: 100, outputTokens: 10, costMicros: 7 }),
        usageEntry({ requestId: 'r2', time: T0 + HOUR - 1, inputTokens: 50, outputTokens: 5, costMicros: 3, status: 502 }),
        usageEntry({ requestId: 'r3', time: T0 + 2 * HOUR, model: 'claude-x', keyId: 'key_2', keyName: 'bob', costMicros: 1 }),
        // Outside the range on both sides.
        usageEntry({ requestId: 'r0', time: T0 - 1 }),
        usageEntry({ requestId: 'r9', time: T0 + 3 * HOUR }),
      ]);
      const summary = await context.store.usage.summarize({ from: T0, to: T0 + 3 * HOUR, bucketMs: HOUR });
      assert.deepEqual(
        summary.series.map((point) => [point.start - T0, point.requests, point.errors, point.inputTokens, point.outputTokens, point.costMicros]),
        [
          [0, 2, 1, 150, 15, 10],
          [HOUR, 0, 0, 0, 0, 0],
          [2 * HOUR, 1, 0, 1200, 340, 1],
        ],
      );
      assert.equal(summary.series[1]!.latencyP50Ms, null);
      assert.deepEqual(
        { requests: summary.totals.requests, errors: summary.totals.errors, costMicros: summary.totals.costMicros },
        { requests: 3, errors: 1, costMicros: 11 },
      );
      assert.deepEqual(
        summary.byModel.map((row) => [row.id, row.requests]),
        [
          ['gpt-4o', 2],
          ['claude-x', 1],
        ],
      );
      assert.deepEqual(
        summary.byKey.map((row) => [row.id, row.name, row.requests, row.costMicros]),
        [
          ['key_1', 'alice', 2, 10],
          ['key_2', 'bob', 1, 1],
        ],
      );
    });

    test('latency percentiles land close to the true values and filters narrow every part', async () => {
      // 100 requests at 100..199 ms for alice and 5 slow ones (4 s) for bob.
      const fast = Array.from({ length: 100 }, (_, index) => usageEntry({ requestId: `f${index}`, time: T0 + index, latencyMs: 100 + index }));
      const slow = Array.from({ length: 5 }, (_, index) =>
        usageEntry({ requestId: `s${index}`, time: T0 + index, latencyMs: 4000, keyId: 'key_2', keyName: 'bob' }),
      );
      await context.store.usage.insertMany([...fast, ...slow]);
      const all = await context.store.usage.summarize({ from: T0, to: T0 + HOUR, bucketMs: HOUR });
      const p50 = all.totals.latencyP50Ms!;
      assert.ok(p50 >= 120 && p50 <= 180, `p50 ${p50} should be near 152`);
      const p95 = all.totals.latencyP95Ms!;
      assert.ok(p95 >= 190 && p95 <= 5000, `p95 ${p95} should sit between the fast and the slow requests`);

      const bob = await context.store.usage.summarize({ from: T0, to: T0 + HOUR, bucketMs: HOUR, keyId: 'key_2' });
      assert.equal(bob.totals.requests, 5);
      assert.ok(bob.totals.latencyP50Ms! >= 3500 && bob.totals.latencyP50Ms! <= 5000);
      assert.deepEqual(
        bob.byKey.map((row) => row.id),
        ['key_2'],
      );
    });

    test('rejects a bucket width that is not a positive integer', async () => {
      await assert.rejects(context.store.usage.summarize({ from: T0, to: T0 + HOUR, bucketMs: 0 }), RangeError);
    });
  });
}
