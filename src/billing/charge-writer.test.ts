import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { ChargeWriter } from './charge-writer.ts';

type Rows = Array<{ keyId: string; amountMicros: number }>;

/** A store that honours batch ids the way the real one does (claimBatchOnce): an id applies once. */
function idempotentStore() {
  const applied = new Set<string>();
  const balances = new Map<string, number>();
  const calls: string[] = [];
  let faults: Array<'before-commit' | 'after-commit'> = [];
  return {
    balances,
    calls,
    failNext(...next: Array<'before-commit' | 'after-commit'>) {
      faults = next;
    },
    async applyCharges(rows: Rows, batchId: string) {
      calls.push(batchId);
      const fault = faults.shift();
      const connectionLost = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
      if (fault === 'before-commit') throw connectionLost;
      if (!applied.has(batchId)) {
        applied.add(batchId);
        for (const { keyId, amountMicros } of rows) balances.set(keyId, (balances.get(keyId) ?? 0) + amountMicros);
      }
      // The commit landed but its acknowledgement did not reach the writer.
      if (fault === 'after-commit') throw connectionLost;
    },
  };
}

const silent = pino({ level: 'silent' });

test('a batch whose commit landed but whose answer was lost is retried under the same id and charged once', async () => {
  const store = idempotentStore();
  let ids = 0;
  const writer = new ChargeWriter(store, silent, 60_000, () => `b${++ids}`);
  writer.record('k', 100);
  writer.record('k', 50);
  store.failNext('after-commit');
  await writer.flush();
  assert.equal(writer.pending('k'), 150, 'unconfirmed, so still counted as pending');
  await writer.flush();
  assert.deepEqual(store.calls, ['b1', 'b1']);
  assert.equal(store.balances.get('k'), 150);
  assert.equal(writer.pending('k'), 0);
  await writer.close();
});

test('while a batch waits for the database, new charges add up per key instead of becoming more batches', async () => {
  const store = idempotentStore();
  let ids = 0;
  const writer = new ChargeWriter(store, silent, 60_000, () => `b${++ids}`);
  writer.record('k', 1);
  store.failNext('before-commit', 'before-commit');
  await writer.flush();
  for (let tick = 0; tick < 5; tick++) {
    writer.record('k', 10);
    writer.record('j', 7);
  }
  await writer.flush(); // the retry fails again: nothing new is cut into a batch
  assert.deepEqual(store.calls, ['b1', 'b1']);
  assert.equal(writer.pending('k'), 51);
  await writer.flush(); // the retry lands
  await writer.flush(); // then everything queued meanwhile, as one batch
  assert.deepEqual(store.calls, ['b1', 'b1', 'b1', 'b2']);
  assert.deepEqual(Object.fromEntries(store.balances), { k: 51, j: 35 });
  assert.equal(writer.pending('k') + writer.pending('j'), 0);
  await writer.close();
});

test('a refused row is set aside under an id of its own while the others are written once', async () => {
  const calls: Array<{ rows: Rows; id: string }> = [];
  const writer = new ChargeWriter(
    {
      async applyCharges(rows: Rows, id: string) {
        calls.push({ rows, id });
        if (rows.some((row) => row.keyId === 'bad')) throw new Error('check constraint violated');
      },
    },
    silent,
    60_000,
    () => 'batch',
  );
  writer.record('good', 5);
  writer.record('bad', 6);
  await writer.flush();
  assert.deepEqual(
    calls.map((call) => call.id),
    ['batch', 'batch/good', 'batch/bad'],
  );
  assert.deepEqual(
    writer.rejected.map((row) => [row.keyId, row.amountMicros]),
    [['bad', 6]],
  );
  assert.equal(writer.pending('good') + writer.pending('bad'), 0);
  await writer.close();
});

// Issue 27: the balance endpoints add the stored spend and the pending charges; a flush that
// lands during the store read must not make a charge count twice or not at all.
test('withPending counts a charge once when a flush moves it to the store during the read', async () => {
  let stored = 0;
  let release: () => void = () => {};
  const writer = new ChargeWriter(
    {
      async applyCharges(rows: Rows) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        stored += rows[0]?.amountMicros ?? 0;
      },
    },
    pino({ level: 'silent' }),
    60_000,
  );
  writer.record('k', 100);
  let reads = 0;
  const total = await writer.withPending('k', async () => {
    reads += 1;
    const seen = stored;
    if (reads === 1) {
      // The read saw the store before the batch; the batch lands before the read returns.
      const flushing = writer.flush();
      release();
      await flushing;
    }
    return seen;
  });
  assert.equal(total, 100);
  assert.equal(reads, 2, 'the read raced a flush, so it was repeated');
  // A batch in flight when the read starts is waited for: counted from the store, not from pending too.
  writer.record('k', 50);
  const flushing = writer.flush();
  const during = writer.withPending('k', async () => stored);
  release();
  await flushing;
  assert.equal(await during, 150);
  await writer.close();
});
