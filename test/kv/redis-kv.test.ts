import { Redis } from 'ioredis';
import { after } from 'node:test';
import { createRedisKv } from '../../src/kv/create-redis-kv.ts';
import { runKvConformance } from './kv-conformance.ts';
import { redisTestUrl, uniquePrefix } from '../scale/redis-test-support.ts';

const redis = new Redis(redisTestUrl());
after(() => redis.quit());

runKvConformance('redis kv', async () => {
  let time = 1_700_000_000_000;
  const prefix = uniquePrefix('kv');
  const keys = () => redis.keys(`${prefix}*`);
  return {
    kv: createRedisKv(redis, { prefix, now: () => time }),
    // Moves both clocks the kv sees: the callers' (lease expiry) and Redis's (key expiry).
    advanceTime: async (milliseconds) => {
      time += milliseconds;
      for (const key of await keys()) {
        const remaining = await redis.pttl(key);
        if (remaining < 0) continue;
        if (remaining <= milliseconds) await redis.del(key);
        else await redis.pexpire(key, remaining - milliseconds);
      }
    },
    dispose: async () => {
      const left = await keys();
      if (left.length > 0) await redis.del(...left);
    },
  };
});
