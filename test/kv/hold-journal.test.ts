import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createRedisKv } from '../../src/kv/create-redis-kv.ts';
import { startHoldJournal } from '../../src/kv/hold-journal.ts';
import { deleteKeys, redisTestUrl, uniquePrefix } from '../scale/redis-test-support.ts';

const logger = pino({ level: 'silent' });

test("a dead instance's open holds are released by another instance, once; settled holds are not touched", async () => {
  const redis = new Redis(redisTestUrl());
  const prefix = uniquePrefix('journal');
  after(async () => {
    await deleteKeys(redisTestUrl(), prefix);
    redis.disconnect();
  });
  const kv = createRedisKv(redis, { prefix });
  const [doomed, survivor, another] = [1, 2, 3].map(() => startHoldJournal({ kv, redis, prefix, logger }));
  try {
    await kv.seedAccount('wallet:u', 1_000);
    assert.equal((await doomed!.kv.hold('wallet:u', 'open', -300)).applied, true);
    assert.equal((await doomed!.kv.hold('wallet:u', 'done', -200)).applied, true);
    await doomed!.kv.settle('wallet:u', 'done', -150);
    assert.equal((await doomed!.kv.hold('wallet:u', 'refused', -10_000, { min: 0 })).applied, false);
    assert.equal(await kv.get('wallet:u'), 550);
    // Its heartbeat stops; the others see it dead once the heartbeat key is gone.
    doomed!.close();
    assert.deepEqual(await survivor!.sweep(), { billed: 0, released: 0 }, 'alive: nothing is released');
    for (const key of await redis.keys(`${prefix}alive:*`)) await redis.del(key);
    await Promise.all([survivor!.kv.get('x'), another!.kv.get('x')]);
    const released = (await Promise.all([survivor!.sweep(), another!.sweep()])).reduce((sum, count) => sum + count.released, 0);
    assert.equal(released, 1, 'the open hold is released by one sweeper only');
    assert.equal(await kv.get('wallet:u'), 850, 'its reservation is back; the settled charge stays');
    assert.deepEqual(await survivor!.sweep(), { billed: 0, released: 0 });
  } finally {
    for (const journal of [doomed, survivor, another]) journal!.close();
  }
});
