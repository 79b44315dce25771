import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import { UsageWriter } from './usage-writer.ts';

const entry = (id: number): UsageLogEntry => ({
  requestId: `req_${id}`,
  time: id,
  keyId: 'k',
  keyName: 'k',
  group: 'g',
  model: 'm',
  upstreamModel: 'm',
  channelId: 'c',
  channelName: 'c',
  clientProtocol: 'openai-chat',
  upstreamProtocol: 'openai-chat',
  surface: null,
  status: 200,
  errorCode: null,
  errorMessage: null,
  inputTokens: id,
  outputTokens: 1,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  costMicros: id * 3,
  latencyMs: 1,
  ttftMs: null,
  stream: false,
  warnings: [],
  attempts: [{ channelId: 'c', channelName: 'c', status: 200, errorCode: null, latencyMs: 1 }],
  clientIp: null,
  userId: null,
  paidBy: null,
  subscriptionId: null,
});

/** A writer whose `observed` listener notes each row it hears of. */
class CountingWriter extends UsageWriter {
  readonly seen: string[];
  constructor(...[repository, logger, options]: ConstructorParameters<typeof UsageWriter>) {
    const seen: string[] = [];
    super(repository, logger, options, { observed: (row) => seen.push(row.requestId) });
    this.seen = seen;
  }
}

/** A writer over a fake repository that writes `rowsPerWrite` rows per transaction, flushed only when asked. */
function slicedWriter<W extends UsageWriter>(
  Writer: new (...args: ConstructorParameters<typeof UsageWriter>) => W,
  insertMany: (rows: UsageLogEntry[]) => Promise<void>,
  rowsPerWrite: number,
): W {
  return new Writer({ insertMany } as never, pino({ level: 'silent' }), { flushIntervalMs: 60_000, batchSize: 100, maxQueued: 1_000, rowsPerWrite });
}

test('every row is written once, in order, across full batches, and observed exactly once', async () => {
  const written: UsageLogEntry[] = [];
  const writer = new CountingWriter(
    {
      async insertMany(rows: UsageLogEntry[]) {
        written.push(...rows);
      },
    } as never,
    pino({ level: 'silent' }),
    {
      flushIntervalMs: 60_000,
      batchSize: 3,
      maxQueued: 1_000,
    },
  );
  for (let id = 0; id < 5; id++) writer.record(entry(id));
  writer.observeQueued();
  for (let id = 5; id < 8; id++) writer.record(entry(id));
  await writer.flush();
  await writer.close();
  assert.deepEqual(
    written,
    Array.from({ length: 8 }, (_, id) => entry(id)),
  );
  assert.deepEqual(
    writer.seen,
    written.map((row) => row.requestId),
  );
  assert.equal(writer.pending, 0);
});

test('rows the database could not take are kept, retried first, and observed once', async () => {
  let down = true;
  const written: string[] = [];
  const writer = new CountingWriter(
    {
      async insertMany(rows: UsageLogEntry[]) {
        if (down) throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
        written.push(...rows.map((row) => row.requestId));
      },
    } as never,
    pino({ level: 'silent' }),
    { flushIntervalMs: 60_000, batchSize: 2, maxQueued: 1_000 },
  );
  writer.record(entry(1));
  writer.record(entry(2));
  await writer.flush();
  assert.equal(writer.pending, 2);
  writer.record(entry(3));
  down = false;
  await writer.flush();
  await writer.close();
  assert.deepEqual(written, ['req_1', 'req_2', 'req_3']);
  assert.deepEqual(writer.seen, ['req_1', 'req_2', 'req_3']);
});

test('beyond maxQueued the oldest rows are dropped and counted', async () => {
  const writer = new UsageWriter(
    {
      async insertMany() {
        throw Object.assign(new Error('down'), { code: 'ECONNREFUSED' });
      },
    } as never,
    pino({ level: 'silent' }),
    {
      flushIntervalMs: 60_000,
      batchSize: 2,
      maxQueued: 4,
    },
  );
  for (let id = 0; id < 12; id++) {
    writer.record(entry(id));
    await writer.flush();
  }
  assert.ok(writer.pending <= 4, `pending ${writer.pending}`);
  assert.ok(writer.dropped > 0);
  assert.equal(writer.pending + writer.dropped, 12);
});

test('a flush writes rowsPerWrite rows per transaction, in order, and serves the event loop between them', async () => {
  const calls: string[][] = [];
  const served: number[] = [];
  const writer = slicedWriter(
    UsageWriter,
    async (rows) => {
      calls.push(rows.map((row) => row.requestId));
    },
    3,
  );
  for (let id = 0; id < 7; id++) writer.record(entry(id));
  // Queued before the flush starts: runs only if the flush yields between its transactions.
  setImmediate(() => served.push(calls.length));
  await writer.flush();
  assert.deepEqual(calls, [['req_0', 'req_1', 'req_2'], ['req_3', 'req_4', 'req_5'], ['req_6']]);
  assert.deepEqual(served, [1]);
  assert.equal(writer.pending, 0);
  await writer.close();
});

test('when the database goes away mid-flush, the slice and every one after it are kept, in order, and written once it is back', async () => {
  let failFrom = 2;
  const written: string[] = [];
  const writer = slicedWriter(
    UsageWriter,
    async (rows) => {
      if (failFrom-- <= 1) throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
      written.push(...rows.map((row) => row.requestId));
    },
    2,
  );
  for (let id = 0; id < 7; id++) writer.record(entry(id));
  await writer.flush();
  // The first slice went in; the second failed, and the rest were not tried.
  assert.deepEqual(written, ['req_0', 'req_1']);
  assert.equal(writer.pending, 5);
  failFrom = Number.POSITIVE_INFINITY;
  await writer.flush();
  await writer.close();
  assert.deepEqual(written, ['req_0', 'req_1', 'req_2', 'req_3', 'req_4', 'req_5', 'req_6']);
  assert.equal(writer.pending, 0);
});

test('a slice whose rows all fail alone does not hold back the slices after it', async () => {
  const written: string[] = [];
  const writer = slicedWriter(
    UsageWriter,
    async (rows) => {
      if (rows.some((row) => row.requestId === 'req_0' || row.requestId === 'req_1')) throw new Error('CHECK constraint failed');
      written.push(...rows.map((row) => row.requestId));
    },
    2,
  );
  for (let id = 0; id < 5; id++) writer.record(entry(id));
  await writer.flush();
  assert.deepEqual(written, ['req_2', 'req_3', 'req_4']);
  await writer.close();
});

test('a sliced flush observes rows slice by slice; a scrape in between observes the rest, each row once, in order', async () => {
  const seenAtWrite: number[] = [];
  let writer: CountingWriter | undefined;
  writer = slicedWriter(
    CountingWriter,
    async () => {
      const self = writer as CountingWriter;
      seenAtWrite.push(self.seen.length);
      // A scrape while the second slice is written.
      if (seenAtWrite.length === 2) self.observeQueued();
    },
    2,
  );
  for (let id = 0; id < 6; id++) writer.record(entry(id));
  await writer.flush();
  assert.deepEqual(seenAtWrite, [2, 4, 6]);
  assert.deepEqual(writer.seen, ['req_0', 'req_1', 'req_2', 'req_3', 'req_4', 'req_5']);
  await writer.close();
});
