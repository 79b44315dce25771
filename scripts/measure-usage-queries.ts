import { parseArgs } from 'node:util';
import { usageCsvChunks } from '../src/billing/usage-csv.ts';
import type { UsageLogEntry } from '../src/domain/usage-log-entry.ts';
import { createStore } from '../src/store/create-store.ts';
import type { UsageLogQuery, UsageSummaryQuery } from '../src/store/usage-queries.ts';

/**
 * `node --import tsx scripts/measure-usage-queries.ts --database <url> [--samples 20] [--prune]`:
 * on a database filled by scripts/seed-usage.ts (same secret), the p95 of the logs page (100
 * rows) with each of its filters, a page deep in the log through the keyset cursor, the usage
 * summary (the console's 30 d, 7 d and 24 h ranges; 30 d with each filter), and a month's CSV
 * export (time to its first chunk and to its end). With --prune, also prunes the oldest 10 days
 * while a usage batch is written every 5 ms, and reports the slowest of those writes: pruning
 * must never block one for long.
 */
const { values } = parseArgs({
  options: { database: { type: 'string' }, samples: { type: 'string', default: '20' }, prune: { type: 'boolean', default: false } },
});
if (!values.database) throw new Error('--database is required');
const samples = Number(values.samples);
const store = await createStore({ databaseUrl: values.database, secretKey: Buffer.alloc(32, 7) });
const DAY = 86_400_000;
const newest = (await store.usage.query({ limit: 1 }))[0]?.time ?? Date.now();

const p95 = (times: number[]) => times.sort((a, b) => a - b)[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)] as number;
async function timed(run: (sample: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let sample = 0; sample < samples; sample += 1) {
    const began = performance.now();
    await run(sample);
    times.push(performance.now() - began);
  }
  return p95(times);
}
const report = (name: string, ms: number, note = '') => process.stdout.write(`${name.padEnd(34)} p95 ${ms.toFixed(1).padStart(8)} ms ${note}\n`);

const page = (filter: (sample: number) => UsageLogQuery) => timed((sample) => store.usage.query({ limit: 100, ...filter(sample) }));
report('logs page, no filter', await page(() => ({})));
report('logs page, key', await page((s) => ({ keyId: `key-seed-${(s * 13) % 200}` })));
report('logs page, model', await page((s) => ({ model: `model-${s % 20}` })));
report('logs page, channel', await page((s) => ({ channelId: `chan-seed-${s % 10}` })));
report('logs page, group', await page((s) => ({ group: `group-${s % 5}` })));
report('logs page, status 500', await page(() => ({ status: 500 })));
report('logs page, a week ago (from/to)', await page((s) => ({ from: newest - (7 + s) * DAY, to: newest - (6 + s) * DAY })));
report('logs page, key + a month ago', await page((s) => ({ keyId: `key-seed-${s % 200}`, from: newest - 31 * DAY, to: newest - 30 * DAY })));
report('logs page, deep cursor (45 days)', await page((s) => ({ before: newest - 45 * DAY - s * 1000, beforeRequestId: 'z' })));
const summary = (filter: (sample: number) => Partial<UsageSummaryQuery>, span: number, bucketMs: number) =>
  timed((sample) => store.usage.summarize({ from: newest - span, to: newest + 1, bucketMs, ...filter(sample) }));
report('usage summary, 30 days by day', await summary(() => ({}), 30 * DAY, DAY));
report('usage summary, 30 days, one key', await summary((s) => ({ keyId: `key-seed-${(s * 13) % 200}` }), 30 * DAY, DAY));
report('usage summary, 30 days, one group', await summary((s) => ({ group: `group-${s % 5}` }), 30 * DAY, DAY));
report('usage summary, 30 days, one model', await summary((s) => ({ model: `model-${s % 20}` }), 30 * DAY, DAY));
report('usage summary, 7 days by 6 h', await summary(() => ({}), 7 * DAY, 6 * 3_600_000));
report('usage summary, 24 h by hour', await summary(() => ({}), DAY, 3_600_000));

// A month's export, drained as a client would read it.
const exportTimes: number[] = [];
const firstChunkTimes: number[] = [];
let exportedBytes = 0;
for (let sample = 0; sample < Math.min(3, samples); sample += 1) {
  const began = performance.now();
  let first = 0;
  exportedBytes = 0;
  for await (const chunk of usageCsvChunks(store.usage, { from: newest - 30 * DAY, to: newest + 1 })) {
    if (first === 0 && exportedBytes > 0) first = performance.now() - began;
    exportedBytes += chunk.length;
  }
  firstChunkTimes.push(first);
  exportTimes.push(performance.now() - began);
}
report('month export, first rows', p95(firstChunkTimes));
report('month export, whole', p95(exportTimes), `(${(exportedBytes / 1e6).toFixed(0)} MB of CSV)`);

if (values.prune) {
  const oldest = newest - 90 * DAY;
  let slowest = 0;
  let writes = 0;
  let writing = true;
  const writer = (async () => {
    while (writing) {
      const began = performance.now();
      await store.usage.insertMany([probeEntry(writes)]);
      slowest = Math.max(slowest, performance.now() - began);
      writes += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const began = performance.now();
  const pruned = await store.usage.pruneBefore(oldest + 10 * DAY);
  const pruneMs = performance.now() - began;
  writing = false;
  await writer;
  report('prune 10 days', pruneMs, `(${pruned} rows; ${writes} writes meanwhile, slowest ${slowest.toFixed(1)} ms)`);
}
await store.close();

function probeEntry(index: number): UsageLogEntry {
  return {
    requestId: `probe-${Date.now()}-${index}`,
    time: Date.now(),
    keyId: null,
    keyName: null,
    group: null,
    model: 'probe',
    upstreamModel: null,
    channelId: null,
    channelName: null,
    clientProtocol: null,
    upstreamProtocol: null,
    surface: null,
    status: 200,
    errorCode: null,
    errorMessage: null,
    inputTokens: 1,
    outputTokens: 1,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costMicros: 1,
    latencyMs: 1,
    ttftMs: null,
    stream: false,
    warnings: [],
    attempts: [],
    clientIp: null,
  };
}
