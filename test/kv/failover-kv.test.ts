import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { createFailoverKv } from '../../src/kv/create-failover-kv.ts';
import { createMemoryKv } from '../../src/kv/create-memory-kv.ts';
import { waitFor } from '../helpers/wait-for.ts';
import type { Kv } from '../../src/kv/kv.ts';

/**
 * The failover kv against a scripted Redis connection: a fake ioredis client (its status, its
 * events, PING and the generation marker) and a primary kv whose next answers can be made to
 * time out, as ioredis's commandTimeout does under load.
 */
function scripted() {
  const redis = Object.assign(new EventEmitter(), {
    status: 'ready',
    values: new Map<string, string>(),
    pingFails: false,
    async set(key: string, value: string) {
      if (!redis.values.has(key)) redis.values.set(key, value);
      return 'OK';
    },
    async get(key: string) {
      return redis.values.get(key) ?? null;
    },
    async ping() {
      if (redis.pingFails) throw new Error('Command timed out');
      return 'PONG';
    },
  });
  const clock = { now: 0 };
  const store = createMemoryKv({ now: () => 0 });
  let timeouts = 0;
  const calls = { primary: 0 };
  const primary: Kv = {
    ...store,
    async get(key) {
      calls.primary += 1;
      if (timeouts > 0) {
        timeouts -= 1;
        throw new Error('Command timed out');
      }
      return store.get(key);
    },
  };
  const kv = createFailoverKv({
    redis: redis as unknown as Redis,
    primary,
    prefix: 'test:',
    logger: pino({ level: 'silent' }),
    now: () => clock.now,
    replayPrefixes: ['balance:'],
    probeIntervalMs: 20,
  });
  return { redis, kv, calls, clock, timeOut: (count: number) => void (timeouts = count), store };
}

test('a slow answer on a live connection is refused as retryable (429), never served from local counters; the kv stays shared', async () => {
  const { kv, calls, timeOut, store } = scripted();
  await kv.settled();
  await store.setIfAbsent('k', 1, 60_000);
  timeOut(1);
  await assert.rejects(kv.get('k'), (error: any) => error.code === 'rate_limited' && error.retryAfterSeconds === 1);
  assert.equal(kv.shared, true, 'one command timeout under load is not an outage');
  assert.equal(await kv.get('k'), 1, 'the next call reads Redis again');
  assert.equal(calls.primary, 2);
});

test('a lost connection falls back at once, and resumes on ready', async () => {
  const { redis, kv, timeOut } = scripted();
  await kv.settled();
  redis.status = 'reconnecting';
  timeOut(1);
  await kv.get('k');
  assert.equal(kv.shared, false);
  redis.status = 'ready';
  redis.emit('ready');
  await kv.settled();
  assert.equal(kv.shared, true);
});

test('a burst of timeouts within one stall stays shared: a queue of commands timing out together is load, not an outage', async () => {
  const { kv, clock, timeOut } = scripted();
  await kv.settled();
  timeOut(50);
  for (let index = 0; index < 50; index += 1) {
    clock.now += 50;
    await assert.rejects(kv.get('k'), (error: any) => error.code === 'rate_limited');
  }
  assert.equal(kv.shared, true, '50 timeouts over 2.5 s without an answer are not yet an outage');
  assert.equal(await kv.get('k'), undefined, 'an answer ends the stall');
  timeOut(1);
  clock.now += 60_000;
  await assert.rejects(kv.get('k'), (error: any) => error.code === 'rate_limited');
  assert.equal(kv.shared, true, 'a long quiet spell before a timeout is not a stall');
});

test('Redis that answers nothing for 5 s on a live connection falls back, and resumes when PING answers', async () => {
  const { redis, kv, clock, timeOut } = scripted();
  await kv.settled();
  timeOut(3);
  redis.pingFails = true;
  await assert.rejects(kv.get('k'));
  clock.now += 4_000;
  await assert.rejects(kv.get('k'));
  assert.equal(kv.shared, true);
  clock.now += 1_000;
  await kv.get('k');
  assert.equal(kv.shared, false, 'five seconds without any answer is unavailability');
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(kv.shared, false, 'still not answering PING');
  redis.pingFails = false;
  const deadline = Date.now() + 2_000;
  while (!kv.shared && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    await kv.settled();
  }
  assert.equal(kv.shared, true, 'the probe resumed the shared kv');
  await kv.close();
});

test('a recovery refused by a live node (a replica not yet promoted: READONLY) is retried without another ready event', async () => {
  const { redis, kv } = scripted();
  await kv.settled();
  redis.status = 'reconnecting';
  redis.emit('close');
  assert.equal(kv.shared, false);
  const set = redis.set;
  redis.set = async () => {
    throw new Error("READONLY You can't write against a read only replica.");
  };
  redis.status = 'ready';
  redis.emit('ready');
  await kv.settled();
  assert.equal(kv.shared, false, 'the first attempt failed');
  redis.set = set;
  const deadline = Date.now() + 2_000;
  while (!kv.shared && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(kv.shared, true, 'retried on its own');
});

test('a recovery that failed as the connection dropped again still rejoins once it is ready, with no further ready event (the probe runs however the kv went down)', async () => {
  const { redis, kv } = scripted();
  await kv.settled();
  redis.status = 'reconnecting';
  redis.emit('close');
  const set = redis.set;
  redis.set = async () => {
    redis.status = 'reconnecting';
    throw new Error('Connection is closed.');
  };
  redis.status = 'ready';
  redis.emit('ready');
  await kv.settled();
  assert.equal(kv.shared, false, 'the recovery failed, on a connection no longer ready');
  redis.set = set;
  // Ready again, its event spent on the failed recovery: nothing but the probe can resume.
  redis.status = 'ready';
  await waitFor(() => kv.shared, 'the probe resumed the shared kv', 2_000);
  await kv.close();
});

test('REDIS_OUTAGE_MODE=refuse: while Redis is unreachable every call is a retryable 429, a lease given back is not', async () => {
  const redis = Object.assign(new EventEmitter(), { status: 'reconnecting', set: async () => 'OK', get: async () => null, ping: async () => 'PONG' });
  const kv = createFailoverKv({
    redis: redis as unknown as Redis,
    primary: createMemoryKv({ now: () => 0 }),
    prefix: 'test:',
    logger: pino({ level: 'silent' }),
    now: () => 0,
    replayPrefixes: ['balance:'],
    outageMode: 'refuse',
  });
  assert.equal(kv.shared, false);
  await assert.rejects(kv.hold('balance:k', 'h1', -5, { min: 0 }), (error: any) => error.code === 'rate_limited' && error.retryAfterSeconds === 2);
  await assert.rejects(kv.adjust('rpm:k', 1, { max: 10 }), (error: any) => error.code === 'rate_limited');
  await kv.releaseLease('lease:k', 'holder');
  await kv.close();
});
