import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runLoad } from './autocannon-run.ts';
import { benchConfig } from './bench-config.ts';
import { median } from './latency-probe.ts';
import { BASE, latencyAtOne, loadWithCpu } from './scenarios.ts';
import { ttfeAtOne } from './stream-scenarios.ts';
import { pinLoadGenerator, startSystems } from './systems.ts';
import { buildRequest } from './targets.ts';
import { runMain } from './run-main.ts';

/**
 * `npm run bench:requests [-- --rounds N] [--seconds S] [--cpu-prof <dir>] [--baseline <checkout>]`: only the per-request
 * figures of the full bench, for checking one change before and after in minutes: gateway CPU
 * µs per request at c=8 and c=64 (Switchyard passthrough, one translated lane, the minimal proxy,
 * interleaved, the ratio to the proxy taken within each round), added latency at c=1 and added
 * time to first streamed event over direct. Same systems and pinning as `npm run bench`, no peer.
 * `--cpu-prof <dir>` starts Switchyard with `node --cpu-prof` (the profile is written on exit);
 * `--heap-prof <dir>` with `node --heap-prof` (sampled allocations, by stack).
 * `--baseline <checkout>` also runs that checkout's built `dist/` (e.g. a worktree of main) as
 * targets `base` and `base-oa-an`, interleaved in every round, and prints this build's CPU per
 * request as a ratio to the baseline's within each round: a before/after that the box's noise
 * between two separate runs cannot fake.
 */
const argv = process.argv.slice(2);
const arg = (flag: string, fallback: string) => (argv.includes(flag) ? (argv[argv.indexOf(flag) + 1] as string) : fallback);
const rounds = Number(arg('--rounds', '3'));
const seconds = Number(arg('--seconds', '3'));
const profileDir = argv.includes('--cpu-prof') ? arg('--cpu-prof', '/tmp') : undefined;
const heapDir = argv.includes('--heap-prof') ? arg('--heap-prof', '/tmp') : undefined;
const baselineDir = argv.includes('--baseline') ? arg('--baseline', '') : undefined;
const config = benchConfig([]);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const load1 = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const log = (line: string) => process.stdout.write(`[bench:requests ${new Date().toISOString().slice(11, 19)} load ${load1()}] ${line}\n`);

async function main(): Promise<void> {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  // The clients share CPU 0 with the upstream, as in `npm run bench` (gateways on CPU 1).
  if (!pinLoadGenerator()) process.stdout.write('taskset unavailable: the load generator is not pinned\n');
  const systems = await startSystems(repoRoot, log, {
    peer: false,
    nodeFlags: [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(heapDir ? ['--heap-prof', `--heap-prof-dir=${heapDir}`] : [])],
    ...(baselineDir ? { baseline: baselineDir } : {}),
  });
  const target = (id: string) => {
    const found = systems.targets.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`no target ${id}`);
    return found;
  };
  const ids = baselineDir ? ['proxy', 'switchyard', 'base', 'sy-oa-an', 'base-oa-an'] : ['proxy', 'switchyard', 'sy-oa-an'];
  // With a baseline, which of the pair runs first alternates by round (no order bias in the ratio).
  const orderFor = (round: number) => (baselineDir && round % 2 === 0 ? ['proxy', 'base', 'switchyard', 'base-oa-an', 'sy-oa-an'] : ids);
  const cpu: Record<string, Record<number, number[]>> = {};
  const ratios: Record<string, Record<number, number[]>> = {};
  const added: Record<string, { p50: number[]; p99: number[]; ttfe: number[] }> = {};
  try {
    for (const id of [...ids, 'direct']) await runLoad({ request: buildRequest(target(id), BASE), connections: 8, durationS: 2 });
    for (let round = 1; round <= rounds; round++) {
      const atOne: Record<string, { lat: Awaited<ReturnType<typeof latencyAtOne>>; ttfe: Awaited<ReturnType<typeof ttfeAtOne>> }> = {};
      for (const id of ['direct', ...ids])
        atOne[id] = {
          lat: await latencyAtOne(target(id), BASE, { ...config, latencyMs: 1_500 }),
          ttfe: await ttfeAtOne(target(id), { ...config, ttfeStreams: 60 }),
        };
      for (const id of ids) {
        const entry = (added[id] ??= { p50: [], p99: [], ttfe: [] });
        const own = atOne[id];
        const direct = atOne.direct;
        if (!own || !direct) continue;
        entry.p50.push(own.lat.p50Us - direct.lat.p50Us);
        entry.p99.push(own.lat.p99Us - direct.lat.p99Us);
        entry.ttfe.push(own.ttfe.ttfeP50Us - direct.ttfe.ttfeP50Us);
      }
      for (const connections of [8, 64]) {
        const thisRound: Record<string, number> = {};
        for (const id of orderFor(round)) {
          const sample = await loadWithCpu(target(id), BASE, connections, seconds);
          thisRound[id] = sample.cpuUsPerRequest;
          ((cpu[id] ??= {})[connections] ??= []).push(sample.cpuUsPerRequest);
          log(
            `${id} c=${connections}: ${sample.cpuUsPerRequest.toFixed(0)} µs CPU/request, ${sample.rps.toFixed(0)} RPS, p99 ${sample.p99Ms} ms, others on the core ${(sample.othersOnGatewayCore * 100).toFixed(0)} %`,
          );
        }
        for (const id of ids) ((ratios[id] ??= {})[connections] ??= []).push((thisRound[id] as number) / (thisRound.proxy as number));
      }
    }
  } finally {
    await systems.stop();
  }
  process.stdout.write(
    `\nload average at the end: ${readFileSync('/proc/loadavg', 'utf8').trim()}\n\n| target | CPU µs/req c=8 | ratio | CPU µs/req c=64 | ratio | added p50 c=1 | added p99 c=1 | added TTFE p50 |\n|---|---|---|---|---|---|---|---|\n`,
  );
  for (const id of ids) {
    const c = cpu[id] ?? {};
    const r = ratios[id] ?? {};
    const a = added[id] ?? { p50: [], p99: [], ttfe: [] };
    process.stdout.write(
      `| ${id} | ${median(c[8] ?? []).toFixed(0)} | ${median(r[8] ?? []).toFixed(2)} (${(r[8] ?? []).map((v) => v.toFixed(2)).join(' ')}) | ${median(c[64] ?? []).toFixed(0)} | ${median(r[64] ?? []).toFixed(2)} (${(r[64] ?? []).map((v) => v.toFixed(2)).join(' ')}) | ${median(a.p50).toFixed(0)} µs | ${median(a.p99).toFixed(0)} µs | ${median(a.ttfe).toFixed(0)} µs |\n`,
    );
  }
  if (baselineDir) {
    // This build's CPU per request over the baseline's, within each round (below 1: this build is cheaper).
    process.stdout.write(`\n| this build ÷ baseline (${baselineDir}) | c=8 median (rounds) | c=64 median (rounds) |\n|---|---|---|\n`);
    for (const [mine, theirs] of [
      ['switchyard', 'base'],
      ['sy-oa-an', 'base-oa-an'],
    ] as const) {
      const per = (connections: number) =>
        (cpu[mine]?.[connections] ?? []).map((value, round) => value / ((cpu[theirs]?.[connections] ?? [])[round] ?? Number.NaN));
      const cell = (values: number[]) => `${median(values).toFixed(3)} (${values.map((v) => v.toFixed(2)).join(' ')})`;
      process.stdout.write(`| ${mine} ÷ ${theirs} | ${cell(per(8))} | ${cell(per(64))} |\n`);
    }
  }
}

runMain(main);
