import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import pino from 'pino';
import { after, test } from 'node:test';
import { startPostgresLeaderElection, startRedisLeaderElection } from '../../src/cluster/leader-election.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { deleteKeys, postgresTestUrl, redisTestUrl, uniquePrefix } from './redis-test-support.ts';

const logger = pino({ level: 'silent' });

test('Redis lock: exactly one leader; when it stops another takes over', async () => {
  const redis = new Redis(redisTestUrl());
  const key = `${uniquePrefix('leader')}leader`;
  after(async () => {
    await deleteKeys(redisTestUrl(), key);
    redis.disconnect();
  });
  // A TTL well above event-loop stalls on a loaded 2-core machine, so renewal is what is tested.
  const elections = [1, 2, 3].map(() => startRedisLeaderElection({ redis, key, ttlMs: 1_000, logger }));
  try {
    await waitFor(() => elections.filter((election) => election.isLeader()).length === 1, 'one leader');
    // Renewals keep the same leader past several expiries.
    const first = elections.findIndex((election) => election.isLeader());
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal(
      elections.findIndex((election) => election.isLeader()),
      first,
    );
    await elections[first]?.stop();
    await waitFor(() => elections.filter((election, index) => index !== first && election.isLeader()).length === 1, 'a new leader', 5_000);
  } finally {
    await Promise.all(elections.map((election) => election.stop()));
  }
});

test('PostgreSQL advisory lock: exactly one leader; when it stops another takes over', async () => {
  const lockId = Math.floor(Math.random() * 1_000_000_000);
  const elections = [1, 2].map(() => startPostgresLeaderElection({ databaseUrl: postgresTestUrl(), lockId, retryMs: 100, logger }));
  try {
    await waitFor(() => elections.filter((election) => election.isLeader()).length === 1, 'one leader');
    const first = elections.findIndex((election) => election.isLeader());
    await elections[first]?.stop();
    await waitFor(() => elections[1 - first]?.isLeader() === true, 'the other one leads', 2_000);
  } finally {
    await Promise.all(elections.map((election) => election.stop()));
  }
});
