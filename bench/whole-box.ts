import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchConfig } from './bench-config.ts';
import { freePort, launch, LaunchError, sleep, type Launched } from './launch.ts';
import { listenQueueDrops, rssMiB } from './proc-stats.ts';
import { openStreams, type StreamSummary } from './sse-client.ts';
import { ADMIN_TOKEN, configureSwitchyard } from './systems.ts';
import { buildRequest, clientAuth } from './targets.ts';
import { PROFILES } from './upstream-payloads.ts';

export interface WholeBoxResult {
  /** Why the run did not happen, when it did not. */
  skipped: string | undefined;
  workers: number;
  streams: number;
  summary: StreamSummary | undefined;
  /** Streams whose first byte had arrived when the gateway's RSS was read. */
  openAtPeak: number;
  rssIdleMiB: number;
  rssPeakMiB: number;
  redis: string;
  /** Connections the kernel refused at a full listen queue during the run (whole machine). */
  listenOverflows?: number;
  /** Streams whose first byte had arrived, every 2 s from the first request (the ramp's progress). */
  startedEvery2s?: number[];
  /**
   * The load generator's own event-loop delay during the run (p99 and max, ms). When it is
   * seconds, deltas wait in the harness's socket buffers and arrive bunched: a `buffered` stream
   * then says the load generator was saturated, not that the gateway buffered.
   */
  harnessLoopDelayMs?: { p99: number; max: number };
}

/**
 * The whole box as a user would run it: `WORKERS=2` behind one port, Redis for the shared
 * counters (started here the way `.ci/run` starts it, on a free port, nothing persisted), not
 * pinned, and N concurrent profile-C streams (2 deltas/s for 60 s) opened over the ramp. The
 * figure is how many streams got every delta with no error.
 */
export async function runWholeBox(repoRoot: string, upstreamUrl: string, config: BenchConfig, log: (line: string) => void): Promise<WholeBoxResult> {
  const result: WholeBoxResult = {
    skipped: undefined,
    workers: 2,
    streams: config.wholeBoxStreams,
    summary: undefined,
    openAtPeak: 0,
    rssIdleMiB: Number.NaN,
    rssPeakMiB: Number.NaN,
    redis: '',
    listenOverflows: 0,
    startedEvery2s: [],
  };
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-bench-w2-'));
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  let gateway: Launched | undefined;
  try {
    redis = await startRedis(directory);
    result.redis = redis.version;
    const port = await freePort();
    gateway = await launch({
      name: 'switchyard-workers-2',
      cwd: repoRoot,
      cpus: undefined,
      args: ['dist/main.js'],
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: `sqlite:${join(directory, 'bench.db')}`,
        GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        WORKERS: '2',
        REDIS_URL: redis.url,
        // The load generator stands for thousands of clients but connects from one address.
        MAX_CONNECTIONS_PER_IP: '10000',
      },
      ready: { url: `http://127.0.0.1:${port}`, path: '/healthz' },
      timeoutMs: 30_000,
    });
    const key = await configureSwitchyard(gateway.url, upstreamUrl);
    // Both workers learn of the new key through Redis; give the invalidation a moment.
    await sleep(500);
    result.rssIdleMiB = rssMiB(gateway.pid);
    const profile = PROFILES.sc as { deltas: number; gapMs: number };
    const request = buildRequest(
      { id: 'whole-box', label: 'whole box', baseUrl: gateway.url, client: 'openai', modelPrefix: 'oa', headers: clientAuth('openai', key), pid: gateway.pid },
      { profile: 'sc', requestBytes: 200, stream: true },
    );
    log(`whole box: ${config.wholeBoxStreams} profile-C streams over ${config.wholeBoxRampMs} ms, WORKERS=2, Redis ${redis.version}`);
    const dropsBefore = listenQueueDrops().overflows;
    const loopDelay = monitorEventLoopDelay({ resolution: 20 });
    loopDelay.enable();
    const open = openStreams({
      request,
      streams: config.wholeBoxStreams,
      rampMs: config.wholeBoxRampMs,
      expectedDeltas: profile.deltas,
      upstreamGapMs: profile.gapMs,
      timeoutMs: 180_000,
    });
    const began = performance.now();
    const deadline = began + config.wholeBoxRampMs + 20_000;
    while (open.started() < config.wholeBoxStreams && performance.now() < deadline) {
      await sleep(250);
      const progress = (result.startedEvery2s ??= []);
      if (performance.now() - began >= (progress.length + 1) * 2_000) progress.push(open.started());
      result.rssPeakMiB = Math.max(Number.isFinite(result.rssPeakMiB) ? result.rssPeakMiB : 0, rssMiB(gateway.pid));
    }
    result.openAtPeak = open.started();
    result.rssPeakMiB = Math.max(result.rssPeakMiB, rssMiB(gateway.pid));
    result.summary = await open.finished;
    loopDelay.disable();
    result.harnessLoopDelayMs = { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 };
    result.listenOverflows = listenQueueDrops().overflows - dropsBefore;
    return result;
  } catch (error) {
    const message = error instanceof LaunchError ? error.message.split('\n').slice(0, 3).join(' ') : (error as Error).message;
    result.skipped = message;
    return result;
  } finally {
    await gateway?.stop();
    await redis?.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** redis-server in the foreground on a free port, nothing saved to disk, stopped with the run. */
async function startRedis(directory: string): Promise<{ url: string; version: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', directory], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const failed = await Promise.race([spawnError, sleep(100).then(() => undefined)]);
    if (failed) throw new Error(`redis-server could not be started (${failed.message}); install Redis to run the whole-box figures`);
    if (await ping(port)) {
      return {
        url: `redis://127.0.0.1:${port}`,
        version: /v=([\d.]+)/.exec(output)?.[1] ?? 'unknown version',
        async stop() {
          if (child.exitCode !== null) return;
          child.kill('SIGTERM');
          await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(5_000)]);
          if (child.exitCode === null) child.kill('SIGKILL');
        },
      };
    }
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not answer PING within 10 s: ${output.slice(-500)}`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
