import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'node:test';
import { waitFor } from '../helpers/wait-for.ts';
import { addSimulatorChannel, chat, startScaleHarness, type ScaleHarness } from './scale-harness.ts';
import { startPostgresServer, type PostgresServer } from './postgres-server.ts';

const COST = 100;

/**
 * A real restart of PostgreSQL (`pg_ctl stop -m fast`, then start: every connection ended, the
 * port refusing for a while) under steady load on two instances. The database is a server of the
 * test's own, never the shared one. Requests are served from the snapshot and the kv or refused
 * in the caller's shape (never a dropped connection), and once the database is back the pools
 * reconnect and every queued usage row and charge is written exactly once.
 */
test('PostgreSQL restarted under load: served or cleanly refused during, every row and charge written once after', { timeout: 120_000 }, async () => {
  let server: PostgresServer | undefined;
  let harness: ScaleHarness | undefined;
  try {
    server = await startPostgresServer();
    harness = await startScaleHarness({ postgresUrl: server.url });
    const h = harness;
    const pgServer = server;
    const urls = h.instances.map((instance) => instance.url);
    await addSimulatorChannel(h, 0);
    await h.admin(0, 'POST', '/prices', { model: 'gpt-4o-mini', input: 0, output: 1 });
    h.simulator.setDefault({ text: 'ok', usage: { input: 10, output: 100 }, delayMs: 5 });
    const created = await h.admin(0, 'POST', '/keys', { name: 'steady', group: 'default', balance: 1 });
    for (const url of urls) await waitFor(async () => (await chat(url, created.key)).status === 200, 'every instance knows the key', 20_000);
    const warmup = urls.length;

    const replies: Array<{ status: number; code: string | undefined; at: number }> = [];
    let running = true;
    const loops = Array.from({ length: 4 }, async (_, worker) => {
      for (let turn = 0; running; turn += 1) {
        const reply = await chat(urls[(worker + turn) % urls.length] as string, created.key).catch((error: unknown) => ({ status: 0, code: String(error) }));
        replies.push({ ...reply, at: Date.now() });
      }
    });
    await delay(1_000);
    const stoppedAt = Date.now();
    await pgServer.stop();
    await delay(2_000);
    await pgServer.start();
    const startedAt = Date.now();
    await waitFor(async () => (await fetch(`${urls[0]}/readyz`)).status === 200, 'ready again once the database is back', 20_000);
    const readyAfterMs = Date.now() - startedAt;
    await delay(1_000);
    running = false;
    await Promise.all(loops);

    const dropped = replies.filter((reply) => reply.status === 0);
    assert.deepEqual(dropped.slice(0, 3), [], 'no connection dropped');
    const during = replies.filter((reply) => reply.at >= stoppedAt && reply.at <= startedAt);
    const refused = replies.filter((reply) => reply.status !== 200);
    const served = warmup + replies.filter((reply) => reply.status === 200).length;
    let last = { rows: 0, spent: 0 };
    const counts = async () => {
      const rows = await h.query<{ rows: string; spent: string }>(
        'select (select count(*) from usage_logs where key_id = $1 and status = 200) as rows, (select spent_micros from api_keys where id = $1) as spent',
        [created.id],
      );
      return { rows: Number(rows[0]?.rows), spent: Number(rows[0]?.spent) };
    };
    await waitFor(
      async () => {
        last = await counts().catch(() => last);
        return last.rows === served && last.spent === served * COST;
      },
      'every served request has its row and its charge',
      20_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; expected ${served} rows and ${served * COST} spent, have ${JSON.stringify(last)}`);
    });
    const figures = {
      servedDuring: during.filter((reply) => reply.status === 200).length,
      refusedDuring: during.filter((reply) => reply.status !== 200).length,
      refusedCodes: [...new Set(refused.map((reply) => `${reply.status} ${reply.code}`))],
      readyAfterMs,
      served,
    };
    console.log(`[figures postgres restart] ${JSON.stringify(figures)}`);
    assert.ok(figures.servedDuring > 0, 'requests were served while the database was down');
  } finally {
    await harness?.close().catch(() => undefined);
    await server?.dispose();
  }
});
