import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad } from './autocannon-run.ts';
import { freePort, launch, type Launched } from './launch.ts';
import { runMain } from './run-main.ts';
import { BASE, loadWithCpu } from './scenarios.ts';
import { ADMIN_TOKEN, configureSwitchyard, GATEWAY_CPU, startSystems } from './systems.ts';
import { buildRequest, clientAuth, type Target } from './targets.ts';

/**
 * `node --import tsx bench/request-cpu-ab.ts [--targets switchyard,base,pproxy,variant] [--rounds N]
 * [--seconds S] [--c 8,64] [--baseline <checkout>] [--flags "<node flags>"] [--proxy-flags "<node flags>"]
 * [--variant-flags "<node flags>"]`: only the passthrough CPU µs per request (0.2 KB body, 1.4 KB
 * reply), interleaved over many short rounds (which target goes first alternates by round), with
 * each target's per-round ratio to the first target listed: a quicker A/B than bench:requests
 * (no c=1 latency or streams) for telling a few per cent apart on a noisy box.
 * Targets: `switchyard` (this build), `base` (`--baseline`), `pproxy` (the minimal proxy, started
 * here with `--proxy-flags`, e.g. `--cpu-prof --cpu-prof-dir=<dir> --import <file that exits on
 * SIGTERM>` to profile it), `variant` (this build again with `--variant-flags`, e.g.
 * `--max-semi-space-size=64`: the same code under other V8 flags). `--flags` go to switchyard and
 * base. With `--trace-gc-nvp` among a target's flags it also prints the bytes V8 allocated per
 * request (the sum of `allocated=` over the load), scavenges and GC pause per request.
 */
const argv = process.argv.slice(2);
const arg = (flag: string, fallback: string) => (argv.includes(flag) ? (argv[argv.indexOf(flag) + 1] as string) : fallback);
const words = (flag: string) => arg(flag, '').split(' ').filter(Boolean);
const seconds = Number(arg('--seconds', '3'));
const rounds = Number(arg('--rounds', '3'));
const concurrencies = arg('--c', '8').split(',').map(Number);
const ids = arg('--targets', 'switchyard,pproxy').split(',');
const baselineDir = argv.includes('--baseline') ? arg('--baseline', '') : undefined;
/** `--also <checkout>,<checkout>`: more built checkouts, targets `also1`, `also2`, … (a bisection's points in one interleaved run). */
const alsoDirs = arg('--also', '').split(',').filter(Boolean);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

interface GcStats {
  allocated: number;
  scavenges: number;
  full: number;
  pauseMs: number;
}

/** Sums V8's `--trace-gc-nvp` lines from a process's stdout. */
function watchGc(launched: Launched | undefined, into: Map<number, GcStats>): void {
  if (!launched) return;
  const stats: GcStats = { allocated: 0, scavenges: 0, full: 0, pauseMs: 0 };
  into.set(launched.pid, stats);
  let rest = '';
  launched.child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const allocated = / allocated=(\d+)/.exec(line);
      if (!allocated) continue;
      stats.allocated += Number(allocated[1]);
      if (/ gc=s /.test(line)) stats.scavenges += 1;
      else stats.full += 1;
      stats.pauseMs += Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
    }
  });
}

async function main(): Promise<void> {
  const systems = await startSystems(repoRoot, (line) => process.stdout.write(`${line}\n`), {
    peer: false,
    nodeFlags: words('--flags'),
    ...(baselineDir ? { baseline: baselineDir } : {}),
  });
  const extra: Launched[] = [];
  const variantDir = mkdtempSync(join(tmpdir(), 'switchyard-variant-'));
  const find = (id: string): Target => {
    const found = systems.targets.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`no target ${id}`);
    return found;
  };
  try {
    const proxy = await launch({
      name: 'pproxy',
      cwd: repoRoot,
      cpus: GATEWAY_CPU,
      args: [...words('--proxy-flags'), '--import', 'tsx', 'bench/minimal-proxy.ts', '--port', '0', '--upstream', systems.upstream.url],
      ready: { printsUrl: true },
    });
    extra.push(proxy);
    systems.targets.push({ ...find('proxy'), id: 'pproxy', baseUrl: proxy.url, pid: proxy.pid });
    let variant: Launched | undefined;
    if (ids.includes('variant')) {
      const port = await freePort();
      variant = await launch({
        name: 'variant',
        cwd: repoRoot,
        cpus: GATEWAY_CPU,
        args: [...words('--variant-flags'), 'dist/main.js'],
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: `sqlite:${join(variantDir, 'variant.db')}`,
          GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
          LOG_LEVEL: 'warn',
          WORKERS: '1',
        },
        ready: { url: `http://127.0.0.1:${port}`, path: '/healthz' },
      });
      extra.push(variant);
      const key = await configureSwitchyard(variant.url, systems.upstream.url);
      systems.targets.push({ ...find('switchyard'), id: 'variant', baseUrl: variant.url, headers: clientAuth('openai', key), pid: variant.pid });
    }
    for (const [index, dir] of alsoDirs.entries()) {
      const port = await freePort();
      const also = await launch({
        name: `also${index + 1}`,
        cwd: dir,
        cpus: GATEWAY_CPU,
        args: [...words('--flags'), 'dist/main.js'],
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: `sqlite:${join(variantDir, `also${index + 1}.db`)}`,
          GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
          LOG_LEVEL: 'warn',
          WORKERS: '1',
        },
        ready: { url: `http://127.0.0.1:${port}`, path: '/healthz' },
      });
      extra.push(also);
      const key = await configureSwitchyard(also.url, systems.upstream.url);
      systems.targets.push({ ...find('switchyard'), id: `also${index + 1}`, baseUrl: also.url, headers: clientAuth('openai', key), pid: also.pid });
      process.stdout.write(`also${index + 1} = ${dir}\n`);
    }
    const gc = new Map<number, GcStats>();
    for (const launched of [systems.switchyard, systems.baseline, proxy, variant, ...extra.slice(1)]) watchGc(launched, gc);
    for (const id of ids) await runLoad({ request: buildRequest(find(id), BASE), connections: 8, durationS: 2 });

    const results: Record<string, number[]> = {};
    for (let round = 0; round < rounds; round++) {
      for (const connections of concurrencies) {
        for (const id of round % 2 ? [...ids].reverse() : ids) {
          const target = find(id);
          const stats = target.pid === undefined ? undefined : gc.get(target.pid);
          const before = stats ? { ...stats } : undefined;
          const sample = await loadWithCpu(target, BASE, connections, seconds);
          (results[`${id} c=${connections}`] ??= []).push(sample.cpuUsPerRequest);
          process.stdout.write(
            `${id} c=${connections}: ${sample.cpuUsPerRequest.toFixed(0)} µs CPU/request, ${sample.rps.toFixed(0)} RPS, others on the core ${(sample.othersOnGatewayCore * 100).toFixed(0)} %\n`,
          );
          if (stats && before && stats.allocated > before.allocated) {
            const per = (value: number) => value / sample.completed;
            process.stdout.write(
              `${id} c=${connections} gc: ${(per(stats.allocated - before.allocated) / 1024).toFixed(1)} KiB allocated/request, ${stats.scavenges - before.scavenges} scavenges, ${stats.full - before.full} full, pause ${(per(stats.pauseMs - before.pauseMs) * 1000).toFixed(1)} µs/request\n`,
            );
          }
        }
      }
    }
    // The middle value (the upper one of an even count).
    const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    for (const [name, values] of Object.entries(results)) {
      const connections = name.split(' ')[1];
      const reference = results[`${ids[0]} ${connections}`] ?? [];
      const ratios = values.map((value, index) => value / (reference[index] as number));
      process.stdout.write(
        `SUMMARY ${name}: median ${middle(values).toFixed(0)} µs (${values.map((v) => v.toFixed(0)).join(' ')}), ÷ ${ids[0]} median ${middle(ratios).toFixed(3)} (${ratios.map((v) => v.toFixed(2)).join(' ')})\n`,
      );
    }
  } finally {
    for (const launched of extra.reverse()) await launched.stop();
    await systems.stop();
    rmSync(variantDir, { recursive: true, force: true });
  }
}

runMain(main);
