import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitFor } from '../helpers/wait-for.ts';
import { addSimulatorChannel, chat, startScaleHarness, type ScaleHarness } from './scale-harness.ts';
import { postgresTestUrl } from './redis-test-support.ts';
import { startTcpCutter } from './tcp-cutter.ts';

const COST = 100;

test('PostgreSQL unreachable mid-run: keys and channels keep serving from the snapshot, usage rows and charges are queued and written when it is back', async () => {
  const target = new URL(postgresTestUrl());
  const cutter = await startTcpCutter({ host: target.hostname, port: Number(target.port || 5432) });
  let harness: ScaleHarness | undefined;
  try {
    harness = await startScaleHarness({
      gatewayDatabaseUrl: (url) => {
        const viaProxy = new URL(url);
        viaProxy.host = `127.0.0.1:${cutter.port}`;
        return viaProxy.toString();
      },
    });
    const h = harness;
    const [a, b] = h.instances.map((instance) => instance.url) as [string, string];
    await addSimulatorChannel(h, 0);
    await h.admin(0, 'POST', '/prices', { model: 'gpt-4o-mini', input: 0, output: 1 });
    h.simulator.setDefault({ text: 'ok', usage: { input: 10, output: 100 }, delayMs: 2 });
    const created = await h.admin(0, 'POST', '/keys', { name: 'steady', group: 'default', balance: 1 });
    const counts = async () => {
      const rows = await h.query<{ rows: string; spent: string }>(
        'select (select count(*) from usage_logs where key_id = $1) as rows, (select spent_micros from api_keys where id = $1) as spent',
        [created.id],
      );
      return { rows: Number(rows[0]?.rows), spent: Number(rows[0]?.spent) };
    };
    const burst = async (count: number) => {
      const replies = await Promise.all(Array.from({ length: count }, (_, index) => chat(index % 2 === 0 ? a : b, created.key)));
      assert.deepEqual(
        replies.filter((reply) => reply.status !== 200),
        [],
        'every request is served',
      );
      return count;
    };

    await waitFor(async () => (await chat(b, created.key)).status === 200, 'B knows the key');
    let served = 1;
    served += await burst(20);
    await waitFor(async () => (await counts()).rows === served, 'rows before the outage written');

    cutter.cut();
    served += await burst(30);
    const readiness = await fetch(`${a}/readyz`);
    assert.equal(readiness.status, 503, 'not ready while the database is unreachable');
    assert.equal(((await readiness.json()) as any).checks.store, false);
    assert.equal((await fetch(`${a}/healthz`)).status, 200, 'but alive');

    cutter.restore();
    let last = { rows: 0, spent: 0 };
    await waitFor(
      async () => {
        last = await counts();
        return last.rows === served && last.spent === served * COST;
      },
      'queued rows and charges written once the database is back',
      15_000,
    ).catch((error: Error) => {
      // Say which side is off: a spend above served × cost is a charge applied twice.
      throw new Error(`${error.message}; expected ${served} rows and ${served * COST} spent, have ${JSON.stringify(last)}`);
    });
    assert.deepEqual(await counts(), { rows: served, spent: served * COST });
    assert.equal((await fetch(`${a}/readyz`)).status, 200);
  } finally {
    await harness?.close();
    await cutter.close();
  }
});
