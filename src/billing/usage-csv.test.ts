import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import type { UsageLogQuery } from '../store/usage-queries.ts';
import { usageCsvChunks } from './usage-csv.ts';

const entry = (index: number, overrides: Partial<UsageLogEntry> = {}): UsageLogEntry => ({
  requestId: `req_${String(index).padStart(5, '0')}`,
  time: 1_767_225_600_000 + index,
  keyId: 'key_1',
  keyName: 'ops',
  group: 'default',
  model: 'gpt-x',
  upstreamModel: 'gpt-x',
  channelId: 'ch_1',
  channelName: 'main',
  clientProtocol: 'openai-chat',
  upstreamProtocol: 'openai-chat',
  surface: 'chat',
  status: 200,
  errorCode: null,
  errorMessage: null,
  inputTokens: 10,
  outputTokens: 5,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  costMicros: 1_234_567,
  latencyMs: 80,
  ttftMs: null,
  stream: false,
  warnings: [],
  attempts: [],
  clientIp: null,
  ...overrides,
});

/** An in-memory repository with the store's ordering and keyset cursor, recording each query. */
function fakeUsage(rows: UsageLogEntry[]) {
  const queries: UsageLogQuery[] = [];
  const sorted = [...rows].sort((a, b) => b.time - a.time || (a.requestId < b.requestId ? 1 : -1));
  return {
    queries,
    async query(query: UsageLogQuery) {
      queries.push(query);
      const { before, beforeRequestId } = query;
      const after = sorted.filter(
        (row) => before === undefined || row.time < before || (row.time === before && beforeRequestId !== undefined && row.requestId < beforeRequestId),
      );
      return after.filter((row) => query.model === undefined || row.model === query.model).slice(0, query.limit);
    },
  };
}

async function collect(chunks: AsyncGenerator<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

test('the export is every matching row once, newest first, read in keyset pages', async () => {
  const usage = fakeUsage(Array.from({ length: 4_100 }, (_, index) => entry(index)));
  const chunks = await collect(usageCsvChunks(usage, { model: 'gpt-x' }));
  const lines = chunks
    .join('')
    .split('\r\n')
    .filter((line) => line !== '');
  assert.equal(lines.length, 4_101);
  assert.match(lines[0] as string, /^time,request_id,/);
  assert.ok(lines[1]?.includes('req_04099'));
  assert.ok(lines[4_100]?.includes('req_00000'));
  assert.equal(new Set(lines).size, 4_101);
  assert.equal(usage.queries.length, 3);
  assert.deepEqual(usage.queries[1], { model: 'gpt-x', before: 1_767_225_600_000 + 2_100, beforeRequestId: 'req_02100', limit: 2_000 });
});

test('cells are quoted, formulas neutralised and the cost exact in USD', async () => {
  const usage = fakeUsage([entry(1, { keyName: '=HYPERLINK("http://x")', model: 'a,b', costMicros: 5, ttftMs: 12 })]);
  const [, row] = (await collect(usageCsvChunks(usage, {}))).join('').split('\r\n');
  assert.ok(row?.includes(`"'=HYPERLINK(""http://x"")"`), row);
  assert.ok(row?.includes(',"a,b",'), row);
  assert.ok(row?.includes(',0.000005,'), row);
  assert.ok(row?.startsWith('2026-01-01T00:00:00.001Z,req_00001,'), row);
});
