import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createBenchUpstream } from '../../bench/bench-upstream.ts';
import { configureSwitchyard } from '../../bench/systems.ts';

/**
 * The memory gate of `npm test` (issue 33): a deterministic check, not a timing. A gateway in
 * its own process (memory-gate-gateway.ts, --expose-gc) with the bench's configuration (two
 * channels, prices, a key with a balance: every feature on) measures its used heap after full
 * collections. Two figures, each against bench/memory-budgets.json, failing on a rise of more
 * than 15 %: the heap growth over M sequential requests after a warm-up (a leak shows here) and
 * the heap per open stream with N streams held open (what each in-flight stream costs).
 * `MEMORY_GATE_UPDATE=1` writes the measured figures as the new budgets. The growth budget is a
 * floor above the noise of a full collection (runs measured 0 to ~300 B per request after the
 * warm-up; a leak of a request's state is kilobytes), so raise it only for a reason.
 */
const BUDGETS_PATH = fileURLToPath(new URL('../../bench/memory-budgets.json', import.meta.url));
const CHILD = fileURLToPath(new URL('./memory-gate-gateway.ts', import.meta.url));
const WARMUP_REQUESTS = 800;
const MEASURED_REQUESTS = 500;
const OPEN_STREAMS = 200;
const TOLERANCE = 1.15;

interface Budgets {
  /** Used-heap growth over MEASURED_REQUESTS sequential requests, in bytes per request. */
  heapGrowthBytesPerRequest: number;
  /** Used heap added by each open stream, in bytes. */
  heapBytesPerOpenStream: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

function send(url: string, key: string, model: string, stream: boolean, onFirstBytes: (request: ClientRequest) => void): ClientRequest {
  const body = JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'How far is the moon?' }] });
  const outgoing = request(`${url}/v1/chat/completions`, {
    method: 'POST',
    agent,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  outgoing.on('response', (response) => {
    if (response.statusCode !== 200) throw new Error(`gateway answered ${response.statusCode}`);
    response.once('data', () => onFirstBytes(outgoing));
    response.resume();
  });
  outgoing.end(body);
  return outgoing;
}

async function completeOne(url: string, key: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const outgoing = send(url, key, 'oa-s0', false, () => undefined);
    outgoing.on('response', (response) => response.on('end', resolve).on('error', reject));
    outgoing.on('error', reject);
  });
}

function gatewayProcess(): Promise<{ child: ChildProcess; url: string; heap(): Promise<number> }> {
  const child = fork(CHILD, [], { execArgv: ['--expose-gc', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const heap = () =>
    new Promise<number>((resolve) => {
      child.once('message', (message) => resolve((message as { heap: number }).heap));
      child.send('heap');
    });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, url: (message as { url: string }).url, heap }));
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}`)));
  });
}

test('memory gate: heap growth over sequential requests and heap per open stream stay within budget', { timeout: 90_000 }, async () => {
  const budgets = JSON.parse(readFileSync(BUDGETS_PATH, 'utf8')) as Budgets;
  const upstream = createBenchUpstream();
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const gateway = await gatewayProcess();
  const streams: ClientRequest[] = [];
  try {
    const key = await configureSwitchyard(gateway.url, upstreamUrl);
    // The warm-up compiles and fills caches (its growth is not a leak); it need not be sequential.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let index = 0; index < WARMUP_REQUESTS / 8; index += 1) await completeOne(gateway.url, key);
      }),
    );
    const before = await gateway.heap();
    for (let index = 0; index < MEASURED_REQUESTS; index += 1) await completeOne(gateway.url, key);
    const after = await gateway.heap();

    // Profile C: one delta every 500 ms for a minute, so every stream stays open while measured.
    await new Promise<void>((resolve) => {
      let started = 0;
      for (let index = 0; index < OPEN_STREAMS; index += 1) {
        streams.push(
          send(gateway.url, key, 'oa-sc', true, () => {
            started += 1;
            if (started === OPEN_STREAMS) resolve();
          }),
        );
      }
    });
    const withStreams = await gateway.heap();

    const measured: Budgets = {
      heapGrowthBytesPerRequest: Math.max(0, Math.round((after - before) / MEASURED_REQUESTS)),
      heapBytesPerOpenStream: Math.round((withStreams - after) / OPEN_STREAMS),
    };
    process.stdout.write(`memory gate: ${JSON.stringify(measured)} (budgets ${JSON.stringify(budgets)})\n`);
    if (process.env.MEMORY_GATE_UPDATE === '1') writeFileSync(BUDGETS_PATH, `${JSON.stringify(measured, null, 2)}\n`);
    for (const name of Object.keys(budgets) as (keyof Budgets)[]) {
      assert.ok(measured[name] <= budgets[name] * TOLERANCE, `${name}: ${measured[name]} B is more than 15 % over its budget of ${budgets[name]} B`);
    }
  } finally {
    for (const stream of streams) stream.destroy();
    agent.destroy();
    gateway.child.send('close');
    await new Promise((resolve) => gateway.child.once('exit', resolve));
    await new Promise((resolve) => upstream.close(resolve));
  }
});
