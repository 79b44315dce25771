import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { waitFor } from '../helpers/wait-for.ts';
import { createRedisProcess } from './redis-process.ts';
import { addSimulatorChannel, chat, startScaleHarness, type ScaleHarness } from './scale-harness.ts';

const COST = 100;
const BALANCE = 1_000_000;

/**
 * Redis goes away in the middle of a run and comes back, without its data (no persistence)
 * or with it (append-only file). Requests are served throughout; every served request has
 * exactly one usage row and one charge; once Redis is back both instances share one balance
 * again and it agrees with the database to the micro-dollar.
 */
for (const persistent of [false, true]) {
  describe(`Redis stopped and restarted mid-run (${persistent ? 'it keeps its data' : 'it comes back empty'})`, () => {
    test('no crash, no lost usage rows, no double charge', async () => {
      const redis = await createRedisProcess({ persistent });
      await redis.start();
      let harness: ScaleHarness | undefined;
      try {
        harness = await startScaleHarness({ redisUrl: redis.url });
        const h = harness;
        const [a, b] = h.instances.map((instance) => instance.url) as [string, string];
        await addSimulatorChannel(h, 0);
        await h.admin(0, 'POST', '/prices', { model: 'gpt-4o-mini', input: 0, output: 1 });
        h.simulator.setDefault({ text: 'ok', usage: { input: 10, output: 100 }, delayMs: 2 });
        const created = await h.admin(0, 'POST', '/keys', { name: 'steady', group: 'default', balance: BALANCE / 1_000_000 });
        await waitFor(async () => (await chat(b, created.key)).status === 200, 'B knows the key');

        const spent = async () =>
          Number((await h.query<{ spent: string }>('select spent_micros as spent from api_keys where id = $1', [created.id]))[0]?.spent);
        const burst = async (count: number) => {
          const replies = await Promise.all(Array.from({ length: count }, (_, index) => chat(index % 2 === 0 ? a : b, created.key)));
          assert.deepEqual(
            replies.filter((reply) => reply.status !== 200),
            [],
            'every request is served',
          );
          return count;
        };

        let served = 1;
        served += await burst(40);
        await waitFor(async () => (await spent()) === served * COST, 'charges before the outage written');

        await redis.stop();
        served += await burst(40);
        assert.ok(
          h.instances.every((instance) => !instance.cluster.shared()),
          'both instances fell back to local counters',
        );
        await waitFor(async () => (await spent()) === served * COST, 'charges during the outage written');

        await redis.start();
        await waitFor(() => h.instances.every((instance) => instance.cluster.shared()), 'both instances use Redis again', 10_000);
        served += await burst(40);
        await waitFor(async () => (await spent()) === served * COST, 'charges after the outage written');

        // Rows and charges have writers of their own, flushed on their own timers: the charges
        // being in does not mean the last rows are. A lost row still fails here, after the wait.
        const rows = async () =>
          (
            await h.query<{ count: string; cost: string }>(
              'select count(*) as count, coalesce(sum(cost_micros), 0) as cost from usage_logs where key_id = $1',
              [created.id],
            )
          )[0];
        await waitFor(async () => (await rows())?.count === String(served), 'every served request has its usage row').catch(() => undefined);
        assert.deepEqual(await rows(), { count: String(served), cost: String(served * COST) });
        const key = await h.admin(1, 'GET', `/keys/${created.id}`);
        assert.equal(Math.round(key.balance * 1_000_000), BALANCE - served * COST);
        // The shared account agrees with the database: replayed once when Redis kept its data,
        // re-seeded from the database when it did not.
        for (const url of [a, b]) {
          const me: any = await (await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${created.key}` } })).json();
          assert.equal(Math.round(me.balance * 1_000_000), BALANCE - served * COST);
        }
      } finally {
        await harness?.close();
        await redis.dispose();
      }
    });
  });
}
