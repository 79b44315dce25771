import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { startLedgerPruner, UNRECONCILED_GRACE_DAYS } from './ledger-pruner.ts';

const silent = pino({ level: 'silent' });
const NOW = Date.UTC(2026, 10, 24);
const DAY = 86_400_000;

test('prunes ledger rows past the retention at start, unreconciled days later, on the leader only; 0 days keeps everything', async () => {
  const calls: Array<[number, number]> = [];
  const ledger = { pruneBefore: async (before: number, unreconciledBefore: number) => (calls.push([before, unreconciledBefore]), 4) };
  const leader = startLedgerPruner({ ledger, retentionDays: 400, now: () => NOW, logger: silent });
  assert.deepEqual(calls, [[NOW - 400 * DAY, NOW - (400 + UNRECONCILED_GRACE_DAYS) * DAY]], 'once at start');
  assert.equal(await leader.prune(), 4);
  leader.stop();

  calls.length = 0;
  startLedgerPruner({ ledger, retentionDays: 400, now: () => NOW, logger: silent, isLeader: () => false }).stop();
  const keepAll = startLedgerPruner({ ledger, retentionDays: 0, now: () => NOW, logger: silent });
  assert.equal(await keepAll.prune(), 0);
  assert.deepEqual(calls, [], 'a follower and 0 days never delete');
});
