import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccessTokenCache } from './access-token-cache.ts';

test('concurrent requests share one mint; the token is reused until renewAt, then minted again', async () => {
  const cache = new AccessTokenCache(4);
  let clock = 1_000;
  let mints = 0;
  const mint = async () => ({ token: `t${++mints}`, renewAt: clock + 100 });
  const first = await Promise.all([1, 2, 3].map(() => cache.get('secret-a', () => clock, mint)));
  assert.deepEqual(first, ['t1', 't1', 't1']);
  clock += 99;
  assert.equal(await cache.get('secret-a', () => clock, mint), 't1');
  clock += 1;
  assert.equal(await cache.get('secret-a', () => clock, mint), 't2');
  assert.equal(mints, 2);
});

test('a failed mint is not cached, and the oldest secret is dropped past the bound', async () => {
  const cache = new AccessTokenCache(2);
  const now = () => 0;
  await assert.rejects(
    cache.get('s', now, async () => Promise.reject(new Error('refused'))),
    /refused/,
  );
  assert.equal(await cache.get('s', now, async () => ({ token: 'ok', renewAt: 10 })), 'ok');
  await cache.get('t', now, async () => ({ token: 't', renewAt: 10 }));
  await cache.get('u', now, async () => ({ token: 'u', renewAt: 10 }));
  // 's' was the oldest: it is minted again.
  assert.equal(await cache.get('s', now, async () => ({ token: 'again', renewAt: 10 })), 'again');
});

test('tokensOf names the current token and the one it replaced, for redaction (issue 23 item 16)', async () => {
  const cache = new AccessTokenCache(4);
  let clock = 0;
  let minted = 0;
  const mint = async () => ({ token: `tok-${(minted += 1)}`, renewAt: clock + 100 });
  assert.deepEqual(cache.tokensOf('{"secret":1}'), []);
  await cache.get('{"secret":1}', () => clock, mint);
  assert.deepEqual(cache.tokensOf('{"secret":1}'), ['tok-1']);
  clock = 200;
  await cache.get('{"secret":1}', () => clock, mint);
  assert.deepEqual(cache.tokensOf('{"secret":1}'), ['tok-2', 'tok-1']);
  assert.deepEqual(cache.tokensOf('{"other":1}'), []);
});
