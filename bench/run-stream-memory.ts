import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchConfig } from './bench-config.ts';
import { sleep } from './launch.ts';
import { memoryWithStreams } from './stream-scenarios.ts';
import { startSystems } from './systems.ts';
import { runMain } from './run-main.ts';

/**
 * `node --import tsx bench/run-stream-memory.ts [--rounds N] [--baseline <checkout>]`: only the
 * full bench's memory-per-stream figure: RSS with 1,000 and then 4,000 open profile-C streams,
 * and the slope between them per 1,000 streams, for the minimal proxy and Switchyard (and a
 * baseline checkout's build, see bench:requests), the targets taking turns within each round.
 * Minutes instead of the full run's half hour.
 */
const argv = process.argv.slice(2);
const arg = (flag: string, fallback: string) => (argv.includes(flag) ? (argv[argv.indexOf(flag) + 1] as string) : fallback);
const rounds = Number(arg('--rounds', '1'));
const baselineDir = argv.includes('--baseline') ? arg('--baseline', '') : undefined;
const config = benchConfig([]);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => process.stdout.write(`[bench:stream-memory ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const STEPS = [1_000, 4_000] as const;

async function main(): Promise<void> {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const systems = await startSystems(repoRoot, log, { peer: false, ...(baselineDir ? { baseline: baselineDir } : {}) });
  const ids = ['proxy', 'switchyard', ...(baselineDir ? ['base'] : [])];
  const slopes: Record<string, number[]> = {};
  try {
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 0 ? [...ids].reverse() : ids;
      for (const id of order) {
        const target = systems.targets.find((candidate) => candidate.id === id);
        if (!target) throw new Error(`no target ${id}`);
        const rss: number[] = [];
        const opened: number[] = [];
        for (const streams of STEPS) {
          const sample = await memoryWithStreams(target, streams, config);
          rss.push(sample.rssMiB);
          opened.push(sample.opened);
          log(`round ${round} ${id} × ${sample.opened}/${streams}: RSS ${sample.rssMiB.toFixed(0)} MiB (idle ${sample.idleRssMiB.toFixed(0)})`);
          await sleep(3_000);
        }
        // Per stream actually open (on a loaded box not all of the 4,000 open in time).
        const slope = (((rss[1] as number) - (rss[0] as number)) / (((opened[1] as number) - (opened[0] as number)) / 1_000)) * 1.048576;
        (slopes[id] ??= []).push(slope);
        log(`round ${round} ${id}: ${slope.toFixed(1)} MB per 1,000 open streams (slope between ${STEPS[0]} and ${STEPS[1]})`);
      }
    }
  } finally {
    await systems.stop();
  }
  process.stdout.write('\n| target | RSS per 1,000 open streams, MB (slope 1,000 → 4,000; each round) |\n|---|---|\n');
  for (const id of ids) process.stdout.write(`| ${id} | ${(slopes[id] ?? []).map((value) => value.toFixed(1)).join(' / ')} |\n`);
}

runMain(main);
