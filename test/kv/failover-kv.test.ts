import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { createFailoverKv } from '../../src/kv/create-failover-kv.ts';
import { createMemoryKv } from '../../src/kv/create-memory-kv.ts';
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
    now: () => 0,
    replayPrefixes: ['balance:'],
    probeIntervalMs: 20,
  });
  return { redis, kv, calls, timeOut: (count: number) => void (timeouts = count), store };
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

test('Redis that stops answering on a live connection falls back after five slow answers in a row, and resumes when PING answers', async () => {
  const { redis, kv, timeOut } = scripted();
  await kv.settled();
  timeOut(5);
  redis.pingFails = true;
  for (let index = 0; index < 4; index += 1) await assert.rejects(kv.get('k'));
  assert.equal(kv.shared, true);
  await kv.get('k');
  assert.equal(kv.shared, false, 'five in a row is unavailability');
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
