import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { startUsagePruner } from './usage-pruner.ts';

const silent = pino({ level: 'silent' });
const NOW = Date.UTC(2026, 10, 24);

test('prunes rows older than the retention at start, on the leader only; 0 days keeps everything', async () => {
  const cutoffs: number[] = [];
  const usage = { pruneBefore: async (time: number) => (cutoffs.push(time), 3) };
  const leader = startUsagePruner({ usage, retentionDays: 30, now: () => NOW, logger: silent });
  assert.deepEqual(cutoffs, [NOW - 30 * 86_400_000], 'once at start');
  assert.equal(await leader.prune(), 3);
  leader.stop();

  cutoffs.length = 0;
  const follower = startUsagePruner({ usage, retentionDays: 30, now: () => NOW, logger: silent, isLeader: () => false });
  assert.deepEqual(cutoffs, [], 'not the leader: nothing at start');
  follower.stop();

  const keepAll = startUsagePruner({ usage, retentionDays: 0, now: () => NOW, logger: silent });
  assert.equal(await keepAll.prune(), 0);
  assert.deepEqual(cutoffs, [], '0 days never deletes');
  keepAll.stop();
});

test('a failed prune is logged and reported as nothing removed, never thrown', async () => {
  const pruner = startUsagePruner({
    usage: { pruneBefore: async () => Promise.reject(new Error('database is down')) },
    retentionDays: 7,
    now: () => NOW,
    logger: silent,
    isLeader: () => false,
  });
  assert.equal(await pruner.prune(), 0);
  pruner.stop();
});
