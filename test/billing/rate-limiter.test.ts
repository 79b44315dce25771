import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RateLimiter } from '../../src/billing/rate-limiter.ts';
import { isGatewayError } from '../../src/core/gateway-error.ts';
import { createMemoryKv } from '../../src/kv/create-memory-kv.ts';
import type { Kv } from '../../src/kv/kv.ts';
import type { ApiKey, KeyLimits } from '../../src/domain/api-key.ts';

// 12:00:15 UTC: 45 s left in the minute.
const START = Date.UTC(2024, 4, 6, 12, 0, 15);

function setup(limits: KeyLimits) {
  let time = START;
  const now = () => time;
  const kv = createMemoryKv({ now });
  // Every counter or lease the limiter touches, so a test can say that nothing was counted.
  const touched: string[] = [];
  const watched: Kv = {
    ...kv,
    adjust: (name, delta, options) => (touched.push(`adjust ${name}`), kv.adjust(name, delta, options)),
    acquireLease: (name, holder, options) => (touched.push(`lease ${name}`), kv.acquireLease(name, holder, options)),
    releaseLease: (name, holder) => (touched.push(`release ${name}`), kv.releaseLease(name, holder)),
  };
  const limiter = new RateLimiter(watched, now);
  const key = { id: 'key_1', limits } as ApiKey;
  return { limiter, key, touched, advance: (ms: number) => (time += ms) };
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

  test('a refused limit undoes the ones already taken: the concurrency slot comes back', async () => {
    const { limiter, key, advance } = setup({ concurrentRequests: 1, requestsPerMinute: 1 });
    const lease = await limiter.admit(key, 0);
    await lease.release(0);
    // rpm refuses after the concurrency slot was taken; the slot must be given back.
    const error = await refusal(limiter.admit(key, 0));
    assert.match(error.message, /limited to 1 request per minute/);
    // In the next minute rpm admits again; a leaked slot (held for 11 minutes) would refuse it.
    advance(45_000);
    const next = await limiter.admit(key, 0);
    await next.release(0);
  });

  test('a refused limit undoes the ones already taken: the request is not counted against the minute', async () => {
    const { limiter, key } = setup({ requestsPerMinute: 2, tokensPerMinute: 100 });
    const first = await limiter.admit(key, 100);
    // tpm refuses after rpm counted this request; the count must be taken back.
    const error = await refusal(limiter.admit(key, 10));
    assert.match(error.message, /100 tokens per minute/);
    await first.release(0); // the token window is back at 0
    // rpm has counted one request; a request left counted would make this the third of two.
    await limiter.admit(key, 10);
    const third = await refusal(limiter.admit(key, 10));
    assert.match(third.message, /limited to 2 requests per minute/);
  });

  test('no limits: nothing is counted', async () => {
    const { limiter, key, touched } = setup({});
    for (let index = 0; index < 100; index += 1) {
      const lease = await limiter.admit(key, 1_000_000);
      await lease.release(2_000_000);
    }
    assert.deepEqual(touched, []);
  });
});
