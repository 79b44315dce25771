import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import type { Kv } from '../../src/kv/kv.ts';

/**
 * What a test gets from a Kv implementation. `advanceTime` moves the implementation's clock
 * forward (a Redis harness can do it by shortening every key's PTTL by the same amount).
 */
export interface KvHarness {
  kv: Kv;
  advanceTime(milliseconds: number): Promise<void>;
  dispose(): Promise<void>;
}

/** The behaviour every Kv must show; the memory one now, Redis when scale-out arrives. */
export function runKvConformance(name: string, createHarness: () => Promise<KvHarness>): void {
  describe(name, () => {
    let harness: KvHarness;
    beforeEach(async () => {
      await harness?.dispose();
      harness = await createHarness();
    });
    after(async () => {
      await harness?.dispose();
    });

    test('get of an absent key is undefined; setIfAbsent stores once and returns what is stored', async () => {
      const { kv } = harness;
      assert.equal(await kv.get('a'), undefined);
      assert.equal(await kv.setIfAbsent('a', 5), 5);
      assert.equal(await kv.setIfAbsent('a', 9), 5);
      assert.equal(await kv.get('a'), 5);
      await kv.delete('a');
      assert.equal(await kv.get('a'), undefined);
    });

    test('adjust counts an absent key as 0 and applies within bounds only', async () => {
      const { kv } = harness;
      assert.deepEqual(await kv.adjust('n', 3), { applied: true, value: 3 });
      assert.deepEqual(await kv.adjust('n', 4, { max: 7 }), { applied: true, value: 7 });
      assert.deepEqual(await kv.adjust('n', 1, { max: 7 }), { applied: false, value: 7 });
      assert.deepEqual(await kv.adjust('n', -7, { min: 0 }), { applied: true, value: 0 });
      assert.deepEqual(await kv.adjust('n', -1, { min: 0 }), { applied: false, value: 0 });
      assert.deepEqual(await kv.adjust('n', -1), { applied: true, value: -1 });
      assert.deepEqual(await kv.adjust('fresh', 2, { max: 1 }), { applied: false, value: 0 });
      assert.equal(await kv.get('fresh'), undefined);
    });

    test('a zero delta with a lower bound tests the value without changing it', async () => {
      const { kv } = harness;
      await kv.setIfAbsent('b', 0);
      assert.deepEqual(await kv.adjust('b', 0, { min: 1 }), { applied: false, value: 0 });
      await kv.adjust('b', 1);
      assert.deepEqual(await kv.adjust('b', 0, { min: 1 }), { applied: true, value: 1 });
    });

    test('non-integer amounts are refused', async () => {
      await assert.rejects(harness.kv.adjust('x', 0.5), TypeError);
      await assert.rejects(harness.kv.setIfAbsent('x', 1.5), TypeError);
    });

    test('a ttl starts when the entry is created and later adjustments keep it', async () => {
      const { kv } = harness;
      await kv.adjust('w', 1, { ttlMs: 1_000 });
      await harness.advanceTime(600);
      await kv.adjust('w', 1, { ttlMs: 1_000 });
      assert.equal(await kv.get('w'), 2);
      await harness.advanceTime(400);
      assert.equal(await kv.get('w'), undefined);
      assert.deepEqual(await kv.adjust('w', 1, { max: 1, ttlMs: 1_000 }), { applied: true, value: 1 });
      await kv.setIfAbsent('s', 1, 500);
      await harness.advanceTime(500);
      assert.equal(await kv.setIfAbsent('s', 2, 500), 2);
    });

    test('requireExisting refuses an absent key without creating it, and adjusts a present one', async () => {
      const { kv } = harness;
      assert.deepEqual(await kv.adjust('account', -5, { min: 0, requireExisting: true }), { applied: false, value: 0, missing: true });
      assert.equal(await kv.get('account'), undefined);
      await kv.setIfAbsent('account', 8);
      assert.deepEqual(await kv.adjust('account', -5, { min: 0, requireExisting: true }), { applied: true, value: 3 });
      assert.deepEqual(await kv.adjust('account', -5, { min: 0, requireExisting: true }), { applied: false, value: 3 });
    });

    test('large balances stay exact to the unit', async () => {
      const { kv } = harness;
      const big = 2 ** 52 + 1;
      assert.equal(await kv.setIfAbsent('big', big), big);
      assert.deepEqual(await kv.adjust('big', -1, { min: 0 }), { applied: true, value: 2 ** 52 });
      assert.deepEqual(await kv.adjust('big', 2, { max: 2 ** 52 + 1 }), { applied: false, value: 2 ** 52 });
    });

    test('leases: at most max holders, released ones free a place, expired ones free it by themselves', async () => {
      const { kv } = harness;
      const options = { max: 2, ttlMs: 1_000 };
      assert.deepEqual(await kv.acquireLease('slots', 'r1', options), { applied: true, value: 1 });
      assert.deepEqual(await kv.acquireLease('slots', 'r2', options), { applied: true, value: 2 });
      assert.deepEqual(await kv.acquireLease('slots', 'r3', options), { applied: false, value: 2 });
      await kv.releaseLease('slots', 'r1');
      await kv.releaseLease('slots', 'unknown');
      assert.deepEqual(await kv.acquireLease('slots', 'r3', options), { applied: true, value: 2 });
      // r2 and r3 belong to an instance that crashed: nobody releases them.
      await harness.advanceTime(1_000);
      assert.deepEqual(await kv.acquireLease('slots', 'r4', options), { applied: true, value: 1 });
      const many = await Promise.all(Array.from({ length: 20 }, (_, index) => kv.acquireLease('busy', `h${index}`, { max: 3, ttlMs: 60_000 })));
      assert.equal(many.filter((result) => result.applied).length, 3);
    });

    test('texts: read in one call, written under several keys, expiring and renewed by a later write', async () => {
      const { kv } = harness;
      assert.deepEqual(await kv.getTexts([]), []);
      assert.deepEqual(await kv.getTexts(['t1', 't2']), [undefined, undefined]);
      await kv.setTexts(['t1', 't2'], 'channel-a 1', 1_000);
      assert.deepEqual(await kv.getTexts(['t0', 't1', 't2']), [undefined, 'channel-a 1', 'channel-a 1']);
      await harness.advanceTime(600);
      await kv.setTexts(['t2'], 'channel-b 0', 1_000);
      await harness.advanceTime(400);
      assert.deepEqual(await kv.getTexts(['t1', 't2']), [undefined, 'channel-b 0']);
      await kv.delete('t2');
      assert.deepEqual(await kv.getTexts(['t2']), [undefined]);
    });

    test('holds: recorded by id, bounded, settled exactly once; a release before the hold arrives refuses the late hold', async () => {
      const { kv } = harness;
      assert.deepEqual(await kv.hold('acct', 'h0', -5, { min: 0 }), { applied: false, value: 0, missing: true });
      assert.equal(await kv.seedAccount('acct', 100), 100);
      assert.equal(await kv.seedAccount('acct', 7), 100, 'a seed never overwrites an account');
      assert.deepEqual(await kv.hold('acct', 'h1', -60, { min: 0 }), { applied: true, value: 40 });
      assert.deepEqual(await kv.hold('acct', 'h1', -60, { min: 0 }), { applied: true, value: 40 }, 'the same hold again is not applied twice');
      assert.deepEqual(await kv.hold('acct', 'h2', -60, { min: 0 }), { applied: false, value: 40 });
      await kv.settle('acct', 'h1', -10);
      assert.equal(await kv.get('acct'), 90, 'settled to its cost: 60 held, 10 charged');
      await kv.settle('acct', 'h1', -10);
      assert.equal(await kv.get('acct'), 90, 'a second settle of the same id changes nothing');
      // A stalled hold: the caller gave up and released it; the command runs afterwards.
      await kv.settle('acct', 'late', 0);
      assert.deepEqual(await kv.hold('acct', 'late', -30, { min: 0 }), { applied: false, value: 90 });
      assert.equal(await kv.get('acct'), 90);
      assert.deepEqual(await kv.hold('cap', 'c1', 5, { max: 10 }), { applied: false, value: 0, missing: true });
      await kv.seedAccount('cap', 4, { ttlMs: 60_000 });
      assert.deepEqual(await kv.hold('cap', 'c1', 5, { max: 10 }), { applied: true, value: 9 });
      assert.deepEqual(await kv.hold('cap', 'c2', 5, { max: 10 }), { applied: false, value: 9 });
      await kv.settle('cap', 'c1', 0);
      assert.equal(await kv.get('cap'), 4);
    });

    test('funding: a newer record version adds its difference once, an older or equal one changes nothing, holds stay', async () => {
      const { kv } = harness;
      await kv.seedAccount('wallet', 1_000, { funding: { version: 10, fundedMicros: 5_000 } });
      assert.deepEqual(await kv.hold('wallet', 'r1', -800, { min: 0, funding: { version: 10, fundedMicros: 5_000 } }), { applied: true, value: 200 });
      // A top-up of 10 (version 11) while r1 is in flight: the account keeps r1's hold.
      assert.deepEqual(await kv.hold('wallet', 'r2', -150, { min: 0, funding: { version: 11, fundedMicros: 5_010 } }), { applied: true, value: 60 });
      assert.equal(await kv.fund('wallet', { version: 11, fundedMicros: 5_010 }), 60, 'the same version again adds nothing');
      assert.equal(await kv.fund('wallet', { version: 9, fundedMicros: 1 }), 60, 'an older record (an instance not yet told) adds nothing');
      // A rename (version 12, same funding): no money moves.
      assert.equal(await kv.fund('wallet', { version: 12, fundedMicros: 5_010 }), 60);
      // An operator correction down by 500 (version 13).
      assert.equal(await kv.fund('wallet', { version: 13, fundedMicros: 4_510 }), -440);
      assert.equal(await kv.fund('absent', { version: 1, fundedMicros: 1 }), undefined);
      const big = 2 ** 52;
      await kv.seedAccount('big', big, { funding: { version: 1, fundedMicros: big } });
      assert.equal(await kv.fund('big', { version: 2, fundedMicros: big + 1 }), big + 1, 'funding differences are exact to the unit');
    });

    test('concurrent holds never pass the bound', async () => {
      const { kv } = harness;
      await kv.seedAccount('pool', 1_000);
      const results = await Promise.all(Array.from({ length: 100 }, (_, index) => kv.hold('pool', `p${index}`, -30, { min: 0 })));
      assert.equal(results.filter((result) => result.applied).length, 33);
      assert.equal(await kv.get('pool'), 10);
    });

    test('concurrent bounded adjustments never pass the bound: exactly the ones that fit apply', async () => {
      const { kv } = harness;
      await kv.setIfAbsent('balance', 1_000);
      const results = await Promise.all(Array.from({ length: 100 }, () => kv.adjust('balance', -30, { min: 0 })));
      assert.equal(results.filter((result) => result.applied).length, 33);
      assert.equal(await kv.get('balance'), 10);
      const slots = await Promise.all(Array.from({ length: 20 }, () => kv.adjust('slots', 1, { max: 4 })));
      assert.equal(slots.filter((result) => result.applied).length, 4);
    });
  });
}
