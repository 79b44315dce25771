import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, UPSTREAM_SECRET } from '../helpers/gateway-harness.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { startProviderSimulator, type ProviderSimulator } from '../simulator/provider-simulator.ts';
import { deleteKeys, redisTestUrl, uniquePrefix } from './redis-test-support.ts';

const METRICS_TOKEN = 'metrics-read-only-0123456789';

/** `npm start` as users run it, with WORKERS set: a Node cluster on one port. */
describe('WORKERS=2', () => {
  let directory: string;
  let simulator: ProviderSimulator;
  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'switchyard-cluster-'));
    simulator = await startProviderSimulator();
  });
  after(async () => {
    await simulator.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const spawnGateway = (env: Record<string, string>) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'info', STRICT_PRICING: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, output: () => output };
  };

  test('refuses to start without Redis, saying which state would be wrong and what to set', async () => {
    const { exited, output } = spawnGateway({ WORKERS: '2', PORT: String(await freePort()), DATABASE_URL: `sqlite:${join(directory, 'refused.db')}` });
    assert.equal(await exited, 2);
    assert.match(output(), /WORKERS=2 needs Redis \(REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES\)/);
    assert.match(output(), /balances/);
    assert.match(output(), /Set REDIS_URL=redis:\/\//);
  });

  test('both workers serve on one port, and SIGTERM lets a request in flight finish before exiting', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const prefix = `${uniquePrefix('cluster').replace(/:$/, '').replaceAll(':', '-')}:`;
    const gateway = spawnGateway({
      WORKERS: '2',
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(directory, 'cluster.db')}`,
      REDIS_URL: redisTestUrl(),
      REDIS_KEY_PREFIX: prefix,
      DRAIN_TIMEOUT_MS: '10000',
      METRICS_TOKEN,
    });
    let child: ChildProcess | undefined = gateway.child;
    try {
      const pids = new Set<number>();
      await waitFor(
        async () => {
          try {
            const response = await fetch(`${url}/readyz`, { headers: { connection: 'close' } });
            if (response.status === 200) pids.add(((await response.json()) as { pid: number }).pid);
          } catch {
            // not listening yet
          }
          return pids.size === 2;
        },
        `two workers answering /readyz (output so far: ${gateway.output()})`,
        120_000,
      );

      const admin = (method: string, path: string, body: unknown) =>
        fetch(`${url}/api/admin${path}`, {
          method,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', connection: 'close' },
          body: JSON.stringify(body),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
      assert.equal(
        (
          await admin('POST', '/channels', {
            name: 'sim',
            provider: 'openai',
            baseUrl: `${simulator.url}/v1`,
            apiKey: UPSTREAM_SECRET,
            models: ['gpt-4o-mini'],
            groups: ['default'],
          })
        ).status,
        201,
      );
      const key = (await admin('POST', '/keys', { name: 'k', group: 'default' })).body.key as string;
      const chat = () =>
        fetch(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', connection: 'close' },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
        });
      // The channel was added through one worker; every request, whichever worker takes it, is served.
      simulator.setDefault({ text: 'ok' });
      const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await chat()).status));
      assert.deepEqual(statuses, Array(10).fill(200));

      // One scrape, whichever worker takes it, sees the whole process group: the ten requests
      // (spread over both workers) are all counted, with a read-only metrics token.
      for (let scrape = 0; scrape < 4; scrape += 1) {
        const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}`, connection: 'close' } });
        assert.equal(response.status, 200);
        const text = await response.text();
        const served = [...text.matchAll(/^switchyard_requests_total\{[^}]*status="200"[^}]*\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
        assert.equal(served, 10, text);
        assert.equal(text.match(/^switchyard_build_info\{/gm)?.length, 1);
      }
      const refused = await fetch(`${url}/api/admin/groups`, { headers: { authorization: `Bearer ${METRICS_TOKEN}`, connection: 'close' } });
      assert.equal(refused.status, 401, 'the metrics token opens nothing but /metrics');

      simulator.setDefault({ text: 'slow but complete', delayMs: 1_500 });
      const inFlight = chat();
      await waitFor(() => simulator.activeRequests() === 1, 'the slow request reached the upstream');
      child.kill('SIGTERM');
      const response = await inFlight;
      assert.equal(response.status, 200);
      assert.match(JSON.stringify(await response.json()), /slow but complete/);
      assert.equal(await gateway.exited, 0);
      child = undefined;
      await assert.rejects(fetch(`${url}/healthz`));
      assert.match(gateway.output(), /SIGTERM: draining every worker/);
    } finally {
      child?.kill('SIGKILL');
      await deleteKeys(redisTestUrl(), prefix);
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
