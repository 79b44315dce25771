import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RateLimiter } from '../../src/access/rate-limiter.ts';
import { isGatewayError } from '../../src/core/gateway-error.ts';
import { createMemoryKv } from '../../src/kv/create-memory-kv.ts';
import type { ApiKey, KeyLimits } from '../../src/domain/api-key.ts';

// 12:00:15 UTC: 45 s left in the minute.
const START = Date.UTC(2024, 4, 6, 12, 0, 15);

function setup(limits: KeyLimits) {
  let time = START;
  const now = () => time;
  const limiter = new RateLimiter(createMemoryKv({ now }), now);
  const key = { id: 'key_1', limits } as ApiKey;
  return { limiter, key, advance: (ms: number) => (time += ms) };
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    assert.ok(isGatewayError(error));
    return error;
  }
  assert.fail('expected a refusal');
}

describe('per-key rate limits', () => {
  test('requests per minute: the next one waits for the minute to turn, retry-after says how long', async () => {
    const { limiter, key, advance } = setup({ requestsPerMinute: 2 });
    await limiter.admit(key, 0);
    await limiter.admit(key, 0);
    const error = await refusal(limiter.admit(key, 0));
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterSeconds, 45);
    assert.match(error.message, /limited to 2 requests per minute/);
    advance(45_000);
    await limiter.admit(key, 0);
  });

  test('concurrent requests: a slot frees when a request ends', async () => {
    const { limiter, key } = setup({ concurrentRequests: 2 });
    const first = await limiter.admit(key, 0);
    await limiter.admit(key, 0);
    const error = await refusal(limiter.admit(key, 0));
    assert.equal(error.retryAfterSeconds, 1);
    assert.match(error.message, /already has 2 requests in progress/);
    await first.release(0);
    await first.release(0); // releasing twice frees one slot only
    await limiter.admit(key, 0);
    await refusal(limiter.admit(key, 0));
  });

  test('tokens per minute: admitted while under the limit, corrected to actual use on release', async () => {
    const { limiter, key } = setup({ tokensPerMinute: 1_000 });
    const lease = await limiter.admit(key, 600);
    await lease.release(900); // the real request used more than estimated
    await limiter.admit(key, 150); // 900 < 1000 before it: admitted, the window is now at 1050
    const error = await refusal(limiter.admit(key, 10));
    assert.match(error.message, /1000 tokens per minute and has used 1050 in this minute/);
    assert.equal(error.retryAfterSeconds, 45);
  });

  test('a refused limit undoes the ones already taken', async () => {
    const { limiter, key } = setup({ concurrentRequests: 1, requestsPerMinute: 1 });
    const lease = await limiter.admit(key, 0);
    await lease.release(0);
    await refusal(limiter.admit(key, 0)); // rpm refuses; the concurrency slot must come back
    const other = setup({ concurrentRequests: 1, requestsPerMinute: 5 });
    await other.limiter.admit(other.key, 0);
    await refusal(other.limiter.admit(other.key, 0));
  });

  test('no limits: nothing is counted', async () => {
    const { limiter, key } = setup({});
    for (let index = 0; index < 100; index += 1) await limiter.admit(key, 1_000_000);
  });
});
