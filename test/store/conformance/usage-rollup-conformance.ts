import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { UsageLogEntry } from '../../../src/domain/usage-log-entry.ts';
import type { DatabaseSchema } from '../../../src/store/database-schema.ts';
import { openDatabase } from '../../../src/store/open-database.ts';
import { parseDatabaseUrl } from '../../../src/store/parse-database-url.ts';
import { summarizeUsage } from '../../../src/store/repositories/summarize-usage.ts';
import type { UsageSummaryQuery } from '../../../src/store/usage-queries.ts';
import type { ConformanceContext } from './conformance-context.ts';
import { usageEntry } from './conformance-context.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Midnight UTC, so day and hour boundaries are easy to read. */
const D0 = 1_699_920_000_000;

/** Three days of rows: every hour, several keys, models and groups, nulls, errors, latencies across the bins. */
function rows(): UsageLogEntry[] {
  return Array.from({ length: 900 }, (_, index) =>
    usageEntry({
      requestId: `r${index}`,
      time: D0 + Math.floor((index * 3 * DAY) / 900) + (index % 7) * 13,
      keyId: index % 11 === 0 ? null : `key_${index % 4}`,
      keyName: index % 11 === 0 ? null : `name_${index % 4}_${index % 2}`,
      group: index % 13 === 0 ? null : `group_${index % 3}`,
      model: index % 17 === 0 ? null : `model_${index % 5}`,
      status: index % 9 === 0 ? 502 : 200,
      inputTokens: (index * 37) % 4000,
      outputTokens: (index * 53) % 1500,
      costMicros: (index * 7919) % 100_000,
      latencyMs: [1, 7, 60, 140, 999, 1000, 4000, 70_000, 700_000][index % 9]!,
    }),
  );
}

const QUERIES: Array<[string, Omit<UsageSummaryQuery, 'from' | 'to'>]> = [
  ['by day', { bucketMs: DAY }],
  ['by 6 h', { bucketMs: 6 * HOUR }],
  ['by hour', { bucketMs: HOUR }],
  ['by day, one key', { bucketMs: DAY, keyId: 'key_2' }],
  ['by day, one group', { bucketMs: DAY, group: 'group_1' }],
  ['by hour, one model, top 2', { bucketMs: HOUR, model: 'model_3', top: 2 }],
  ['by day, top 2', { bucketMs: DAY, top: 2 }],
];

/** Ranges ending on a day, inside a day, and inside an hour (the raw tail). */
const RANGES: Array<[number, number]> = [
  [D0, D0 + 3 * DAY],
  [D0 + 5 * HOUR, D0 + 2 * DAY + 7 * HOUR],
  [D0 + DAY, D0 + 2 * DAY + 7 * HOUR + 1234],
  [D0 - DAY, D0 + 3 * DAY + 1],
];

async function assertRollupMatchesRows(db: Kysely<DatabaseSchema>): Promise<void> {
  for (const [name, query] of QUERIES) {
    for (const [from, to] of RANGES) {
      const full = { ...query, from, to };
      assert.deepEqual(await summarizeUsage(db, full), await summarizeUsage(db, full, { rollup: false }), `${name}, ${from - D0}..${to - D0}`);
    }
  }
}

export function describeUsageRollup(context: ConformanceContext): void {
  describe('usage rollups (hourly and daily)', () => {
    test('the summary from the rollups equals the one from the rows, with retried slices written once', async () => {
      const all = rows();
      // In slices, as the writer does, with two slices retried whole (already written).
      for (let start = 0; start < all.length; start += 32) await context.store.usage.insertMany(all.slice(start, start + 32));
      await context.store.usage.insertMany(all.slice(0, 32));
      await context.store.usage.insertMany([...all.slice(400, 440), usageEntry({ requestId: 'late', time: D0 + 3, keyName: 'zz' })]);
      const { db } = openDatabase(parseDatabaseUrl(context.harness.databaseUrl));
      try {
        const summary = await summarizeUsage(db, { from: D0, to: D0 + 3 * DAY, bucketMs: DAY });
        assert.equal(summary.totals.requests, 901);
        await assertRollupMatchesRows(db);
      } finally {
        await db.destroy();
      }
    });

    test('pruning inside an hour and a day keeps the rollups equal to the rows left', async () => {
      await context.store.usage.insertMany(rows());
      await context.store.usage.pruneBefore(D0 + DAY + 5 * HOUR + 1234);
      const { db } = openDatabase(parseDatabaseUrl(context.harness.databaseUrl));
      try {
        const summary = await summarizeUsage(db, { from: D0, to: D0 + 3 * DAY, bucketMs: DAY });
        assert.equal(summary.series[0]!.requests, 0);
        assert.ok(summary.series[1]!.requests > 0 && summary.series[1]!.requests < 300);
        await assertRollupMatchesRows(db);
      } finally {
        await db.destroy();
      }
    });
  });
}
